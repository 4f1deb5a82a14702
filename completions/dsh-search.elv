
use builtin;
use str;

set edit:completion:arg-completer[dsh-search] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'dsh-search'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'dsh-search'= {
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand glob 'List files whose paths match a glob (hidden and ignored files included, VCS directories such as .git excluded)'
            cand grep 'List lines matching a regex, grouped by file (ignore files and hidden-file rules apply, as in rg)'
            cand call 'Run a tool with its arguments as one JSON object, as a model produced them: {"pattern": ..., "path": ..., "include": ...}'
            cand schema 'Print both tools'' definitions (description, JSON Schema of the arguments, prompt guidance) as one JSON document'
            cand mcp 'Serve both tools over the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0)'
            cand serve 'Keep the index of the workdir and answer grep from it for every caller of this user (the CLI, call, MCP sessions), over a private Unix socket; started by those callers on their own, and gone after --idle-ms without a call, when the workdir is gone, or on a signal'
            cand generate 'Write man pages and shell completions (for packagers and the repo)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'dsh-search;glob'= {
            cand --exclude 'Leave out files matching ONE glob, such as ''**/*.min.js''; braces hold several: ''{**/tests/**,src/macros/cfg.rs}'' leaves out a directory and a file'
            cand --offset 'Entries of the ordered result to skip before the page (the next page''s offset is printed)'
            cand --limit 'Entries on the page (at most the cap)'
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand -i 'Match regardless of case'
            cand --ignore-case 'Match regardless of case'
            cand -L 'Follow symbolic links (a linked directory is searched too)'
            cand --follow 'Follow symbolic links (a linked directory is searched too)'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;grep'= {
            cand --include 'Search only files matching ONE glob, such as ''*.rs'' or ''*.{ts,tsx}''; braces hold several: ''{src/**,tests/**}'''
            cand --exclude 'Leave out files matching ONE glob, such as ''**/*.min.js''; braces hold several: ''{**/tests/**,src/macros/cfg.rs}'' leaves out a directory and a file'
            cand --output 'What to print: matched lines (content), the files that match (files), or matches per file (count)'
            cand -C 'Lines of context before and after each match (0-100; output content)'
            cand --context 'Lines of context before and after each match (0-100; output content)'
            cand -B 'Lines of context before each match (0-100; wins over --context)'
            cand --before 'Lines of context before each match (0-100; wins over --context)'
            cand -A 'Lines of context after each match (0-100; wins over --context)'
            cand --after 'Lines of context after each match (0-100; wins over --context)'
            cand -t 'Search only files of one ripgrep file type, such as rust or py (rg --type-list)'
            cand --type 'Search only files of one ripgrep file type, such as rust or py (rg --type-list)'
            cand --offset 'Entries of the ordered result to skip before the page (the next page''s offset is printed)'
            cand --limit 'Entries on the page (at most the cap)'
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand -W 'Show each match inside the function, method, class or other definition that holds it, found by parsing the file (output content)'
            cand --function-context 'Show each match inside the function, method, class or other definition that holds it, found by parsing the file (output content)'
            cand -i 'Match regardless of case'
            cand --ignore-case 'Match regardless of case'
            cand -F 'Search for the pattern as written, not as a regex'
            cand --literal 'Search for the pattern as written, not as a regex'
            cand -U 'Let a match span lines (''.'' matches a newline too); each of its lines is shown'
            cand --multiline 'Let a match span lines (''.'' matches a newline too); each of its lines is shown'
            cand -L 'Follow symbolic links (a linked directory is searched too)'
            cand --follow 'Follow symbolic links (a linked directory is searched too)'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;call'= {
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;schema'= {
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;mcp'= {
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;serve'= {
            cand --idle-ms 'Exit after this many milliseconds without a call'
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand --status 'List the running servers (tree, files, memory, age, calls) and exit'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;generate'= {
            cand --out-dir 'Directory that receives man/ and completions/'
            cand --cwd 'Directory rg runs in; output paths are shown relative to it [default: the current directory]'
            cand --glob-max-results 'Paths one glob shows inline'
            cand --grep-max-matches 'Matched lines one grep shows inline'
            cand --grep-max-line-bytes 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"'
            cand --raw-output-max-bytes 'Bytes of raw rg output one search may parse; more fails with exit 5'
            cand --timeout-ms 'Milliseconds one search may take; longer fails with exit 6'
            cand --rg 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)'
            cand --format 'Output: model-facing text, or one JSON object'
            cand --spill-dir 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]'
            cand --spill-hint 'The retrieval hint printed after a spill file''s path'
            cand --glob-sort 'Order of glob results; ties are broken by path'
            cand --index 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans'
            cand --serve-after-ms 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once'
            cand --explain 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome'
            cand --mcp-structured 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'dsh-search;help'= {
            cand glob 'List files whose paths match a glob (hidden and ignored files included, VCS directories such as .git excluded)'
            cand grep 'List lines matching a regex, grouped by file (ignore files and hidden-file rules apply, as in rg)'
            cand call 'Run a tool with its arguments as one JSON object, as a model produced them: {"pattern": ..., "path": ..., "include": ...}'
            cand schema 'Print both tools'' definitions (description, JSON Schema of the arguments, prompt guidance) as one JSON document'
            cand mcp 'Serve both tools over the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0)'
            cand serve 'Keep the index of the workdir and answer grep from it for every caller of this user (the CLI, call, MCP sessions), over a private Unix socket; started by those callers on their own, and gone after --idle-ms without a call, when the workdir is gone, or on a signal'
            cand generate 'Write man pages and shell completions (for packagers and the repo)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'dsh-search;help;glob'= {
        }
        &'dsh-search;help;grep'= {
        }
        &'dsh-search;help;call'= {
        }
        &'dsh-search;help;schema'= {
        }
        &'dsh-search;help;mcp'= {
        }
        &'dsh-search;help;serve'= {
        }
        &'dsh-search;help;generate'= {
        }
        &'dsh-search;help;help'= {
        }
    ]
    $completions[$command]
}
