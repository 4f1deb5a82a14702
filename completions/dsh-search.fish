# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_dsh_search_global_optspecs
    string join \n cwd= glob-max-results= grep-max-matches= grep-max-line-bytes= raw-output-max-bytes= timeout-ms= rg= format= spill-dir= spill-hint= explain mcp-structured glob-sort= index= serve-after-ms= h/help V/version
end

function __fish_dsh_search_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_dsh_search_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_dsh_search_using_subcommand
    set -l cmd (__fish_dsh_search_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c dsh-search -n "__fish_dsh_search_needs_command" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -s V -l version -d 'Print version'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "glob" -d 'List files whose paths match a glob (hidden and ignored files included, VCS directories such as .git excluded)'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "grep" -d 'List lines matching a regex, grouped by file (ignore files and hidden-file rules apply, as in rg)'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "call" -d 'Run a tool with its arguments as one JSON object, as a model produced them: {"pattern": ..., "path": ..., "include": ...}'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "schema" -d 'Print both tools\' definitions (description, JSON Schema of the arguments, prompt guidance) as one JSON document'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "mcp" -d 'Serve both tools over the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0)'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "serve" -d 'Keep the index of the workdir and answer grep from it for every caller of this user (the CLI, call, MCP sessions), over a private Unix socket; started by those callers on their own, and gone after --idle-ms without a call, when the workdir is gone, or on a signal'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "generate" -d 'Write man pages and shell completions (for packagers and the repo)'
complete -c dsh-search -n "__fish_dsh_search_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l exclude -d 'Leave out files matching ONE glob, such as \'**/*.min.js\'; braces hold several: \'{**/tests/**,src/macros/cfg.rs}\' leaves out a directory and a file' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l offset -d 'Entries of the ordered result to skip before the page (the next page\'s offset is printed)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l limit -d 'Entries on the page (at most the cap)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -s i -l ignore-case -d 'Match regardless of case'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -s L -l follow -d 'Follow symbolic links (a linked directory is searched too)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand glob" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l include -d 'Search only files matching ONE glob, such as \'*.rs\' or \'*.{ts,tsx}\'; braces hold several: \'{src/**,tests/**}\'' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l exclude -d 'Leave out files matching ONE glob, such as \'**/*.min.js\'; braces hold several: \'{**/tests/**,src/macros/cfg.rs}\' leaves out a directory and a file' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l output -d 'What to print: matched lines (content), the files that match (files), or matches per file (count)' -r -f -a "content\t''
files\t''
count\t''"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s C -l context -d 'Lines of context before and after each match (0-100; output content)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s B -l before -d 'Lines of context before each match (0-100; wins over --context)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s A -l after -d 'Lines of context after each match (0-100; wins over --context)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s t -l type -d 'Search only files of one ripgrep file type, such as rust or py (rg --type-list)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l offset -d 'Entries of the ordered result to skip before the page (the next page\'s offset is printed)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l limit -d 'Entries on the page (at most the cap)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s W -l function-context -d 'Show each match inside the function, method, class or other definition that holds it, found by parsing the file (output content)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s i -l ignore-case -d 'Match regardless of case'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s F -l literal -d 'Search for the pattern as written, not as a regex'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s U -l multiline -d 'Let a match span lines (\'.\' matches a newline too); each of its lines is shown'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s L -l follow -d 'Follow symbolic links (a linked directory is searched too)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand call" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l idle-ms -d 'Exit after this many milliseconds without a call' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l status -d 'List the running servers (tree, files, memory, age, calls) and exit'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l out-dir -d 'Directory that receives man/ and completions/' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l cwd -d 'Directory rg runs in; output paths are shown relative to it [default: the current directory]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l glob-max-results -d 'Paths one glob shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l grep-max-matches -d 'Matched lines one grep shows inline' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l grep-max-line-bytes -d 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l raw-output-max-bytes -d 'Bytes of raw rg output one search may parse; more fails with exit 5' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l timeout-ms -d 'Milliseconds one search may take; longer fails with exit 6' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l rg -d 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l format -d 'Output: model-facing text, or one JSON object' -r -f -a "text\t'Model-facing text'
json\t'One JSON object per call'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l spill-dir -d 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]' -r -F
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l spill-hint -d 'The retrieval hint printed after a spill file\'s path' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l glob-sort -d 'Order of glob results; ties are broken by path' -r -f -a "newest\t'Modification time, newest first'
oldest\t'Modification time, oldest first'
path\t'Path, byte order'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l index -d 'grep asks the workdir\'s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans' -r -f -a "auto\t'Ask the tree\'s index server; scan when it cannot answer'
off\t'Always scan; start no server'"
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l serve-after-ms -d 'Start the workdir\'s index server in the background once a grep\'s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once' -r
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l explain -d 'Print to stderr how the search ran: the exact sh -c command, rg\'s version and exit status, byte counts, results kept, spill outcome'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -l mcp-structured -d 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand generate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "glob" -d 'List files whose paths match a glob (hidden and ignored files included, VCS directories such as .git excluded)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "grep" -d 'List lines matching a regex, grouped by file (ignore files and hidden-file rules apply, as in rg)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "call" -d 'Run a tool with its arguments as one JSON object, as a model produced them: {"pattern": ..., "path": ..., "include": ...}'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "schema" -d 'Print both tools\' definitions (description, JSON Schema of the arguments, prompt guidance) as one JSON document'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "mcp" -d 'Serve both tools over the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "serve" -d 'Keep the index of the workdir and answer grep from it for every caller of this user (the CLI, call, MCP sessions), over a private Unix socket; started by those callers on their own, and gone after --idle-ms without a call, when the workdir is gone, or on a signal'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "generate" -d 'Write man pages and shell completions (for packagers and the repo)'
complete -c dsh-search -n "__fish_dsh_search_using_subcommand help; and not __fish_seen_subcommand_from glob grep call schema mcp serve generate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
