
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'dsh-search' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'dsh-search'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'dsh-search' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'List files whose paths match a glob (hidden and ignored files included, VCS directories such as .git excluded)')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'List lines matching a regex, grouped by file (ignore files and hidden-file rules apply, as in rg)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run a tool with its arguments as one JSON object, as a model produced them: {"pattern": ..., "path": ..., "include": ...}')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print both tools'' definitions (description, JSON Schema of the arguments, prompt guidance) as one JSON document')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve both tools over the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Keep the index of the workdir and answer grep from it for every caller of this user (the CLI, call, MCP sessions), over a private Unix socket; started by those callers on their own, and gone after --idle-ms without a call, when the workdir is gone, or on a signal')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write man pages and shell completions (for packagers and the repo)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'dsh-search;glob' {
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out files matching ONE glob, such as ''**/*.min.js''; braces hold several: ''{**/tests/**,src/macros/cfg.rs}'' leaves out a directory and a file')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Entries of the ordered result to skip before the page (the next page''s offset is printed)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Entries on the page (at most the cap)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (a linked directory is searched too)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (a linked directory is searched too)')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;grep' {
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Search only files matching ONE glob, such as ''*.rs'' or ''*.{ts,tsx}''; braces hold several: ''{src/**,tests/**}''')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out files matching ONE glob, such as ''**/*.min.js''; braces hold several: ''{**/tests/**,src/macros/cfg.rs}'' leaves out a directory and a file')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print: matched lines (content), the files that match (files), or matches per file (count)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match (0-100; output content)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match (0-100; output content)')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each match (0-100; wins over --context)')
            [CompletionResult]::new('--before', '--before', [CompletionResultType]::ParameterName, 'Lines of context before each match (0-100; wins over --context)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each match (0-100; wins over --context)')
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Lines of context after each match (0-100; wins over --context)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Search only files of one ripgrep file type, such as rust or py (rg --type-list)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Search only files of one ripgrep file type, such as rust or py (rg --type-list)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Entries of the ordered result to skip before the page (the next page''s offset is printed)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Entries on the page (at most the cap)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('-W', '-W ', [CompletionResultType]::ParameterName, 'Show each match inside the function, method, class or other definition that holds it, found by parsing the file (output content)')
            [CompletionResult]::new('--function-context', '--function-context', [CompletionResultType]::ParameterName, 'Show each match inside the function, method, class or other definition that holds it, found by parsing the file (output content)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Search for the pattern as written, not as a regex')
            [CompletionResult]::new('--literal', '--literal', [CompletionResultType]::ParameterName, 'Search for the pattern as written, not as a regex')
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Let a match span lines (''.'' matches a newline too); each of its lines is shown')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let a match span lines (''.'' matches a newline too); each of its lines is shown')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (a linked directory is searched too)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (a linked directory is searched too)')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;call' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;schema' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;mcp' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;serve' {
            [CompletionResult]::new('--idle-ms', '--idle-ms', [CompletionResultType]::ParameterName, 'Exit after this many milliseconds without a call')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'List the running servers (tree, files, memory, age, calls) and exit')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;generate' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Directory that receives man/ and completions/')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Directory rg runs in; output paths are shown relative to it [default: the current directory]')
            [CompletionResult]::new('--glob-max-results', '--glob-max-results', [CompletionResultType]::ParameterName, 'Paths one glob shows inline')
            [CompletionResult]::new('--grep-max-matches', '--grep-max-matches', [CompletionResultType]::ParameterName, 'Matched lines one grep shows inline')
            [CompletionResult]::new('--grep-max-line-bytes', '--grep-max-line-bytes', [CompletionResultType]::ParameterName, 'Bytes of one line preview; longer lines are cut and marked "(line truncated)"')
            [CompletionResult]::new('--raw-output-max-bytes', '--raw-output-max-bytes', [CompletionResultType]::ParameterName, 'Bytes of raw rg output one search may parse; more fails with exit 5')
            [CompletionResult]::new('--timeout-ms', '--timeout-ms', [CompletionResultType]::ParameterName, 'Milliseconds one search may take; longer fails with exit 6')
            [CompletionResult]::new('--rg', '--rg', [CompletionResultType]::ParameterName, 'The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: model-facing text, or one JSON object')
            [CompletionResult]::new('--spill-dir', '--spill-dir', [CompletionResultType]::ParameterName, 'Directory where the complete result of a capped search is saved (created with mode 0700) [default: none: capped results are not saved]')
            [CompletionResult]::new('--spill-hint', '--spill-hint', [CompletionResultType]::ParameterName, 'The retrieval hint printed after a spill file''s path')
            [CompletionResult]::new('--glob-sort', '--glob-sort', [CompletionResultType]::ParameterName, 'Order of glob results; ties are broken by path')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'grep asks the workdir''s index server (`dsh-search serve`), so that it reads only the files that can hold a match (same results; --explain says what it did); with none there, or none ready, it scans')
            [CompletionResult]::new('--serve-after-ms', '--serve-after-ms', [CompletionResultType]::ParameterName, 'Start the workdir''s index server in the background once a grep''s own scan took longer than MS milliseconds (0: never); `mcp` starts one at once')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print to stderr how the search ran: the exact sh -c command, rg''s version and exit status, byte counts, results kept, spill outcome')
            [CompletionResult]::new('--mcp-structured', '--mcp-structured', [CompletionResultType]::ParameterName, 'MCP: also send each result as structuredContent (the JSON envelope), declared by an outputSchema. Off by default: Claude Code and Codex show the model structuredContent instead of the text when it is there')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'dsh-search;help' {
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'List files whose paths match a glob (hidden and ignored files included, VCS directories such as .git excluded)')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'List lines matching a regex, grouped by file (ignore files and hidden-file rules apply, as in rg)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run a tool with its arguments as one JSON object, as a model produced them: {"pattern": ..., "path": ..., "include": ...}')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print both tools'' definitions (description, JSON Schema of the arguments, prompt guidance) as one JSON document')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve both tools over the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Keep the index of the workdir and answer grep from it for every caller of this user (the CLI, call, MCP sessions), over a private Unix socket; started by those callers on their own, and gone after --idle-ms without a call, when the workdir is gone, or on a signal')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write man pages and shell completions (for packagers and the repo)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'dsh-search;help;glob' {
            break
        }
        'dsh-search;help;grep' {
            break
        }
        'dsh-search;help;call' {
            break
        }
        'dsh-search;help;schema' {
            break
        }
        'dsh-search;help;mcp' {
            break
        }
        'dsh-search;help;serve' {
            break
        }
        'dsh-search;help;generate' {
            break
        }
        'dsh-search;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
