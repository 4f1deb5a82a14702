_dsh__search() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="dsh__search"
                ;;
            dsh__search,call)
                cmd="dsh__search__subcmd__call"
                ;;
            dsh__search,generate)
                cmd="dsh__search__subcmd__generate"
                ;;
            dsh__search,glob)
                cmd="dsh__search__subcmd__glob"
                ;;
            dsh__search,grep)
                cmd="dsh__search__subcmd__grep"
                ;;
            dsh__search,help)
                cmd="dsh__search__subcmd__help"
                ;;
            dsh__search,mcp)
                cmd="dsh__search__subcmd__mcp"
                ;;
            dsh__search,schema)
                cmd="dsh__search__subcmd__schema"
                ;;
            dsh__search,serve)
                cmd="dsh__search__subcmd__serve"
                ;;
            dsh__search__subcmd__help,call)
                cmd="dsh__search__subcmd__help__subcmd__call"
                ;;
            dsh__search__subcmd__help,generate)
                cmd="dsh__search__subcmd__help__subcmd__generate"
                ;;
            dsh__search__subcmd__help,glob)
                cmd="dsh__search__subcmd__help__subcmd__glob"
                ;;
            dsh__search__subcmd__help,grep)
                cmd="dsh__search__subcmd__help__subcmd__grep"
                ;;
            dsh__search__subcmd__help,help)
                cmd="dsh__search__subcmd__help__subcmd__help"
                ;;
            dsh__search__subcmd__help,mcp)
                cmd="dsh__search__subcmd__help__subcmd__mcp"
                ;;
            dsh__search__subcmd__help,schema)
                cmd="dsh__search__subcmd__help__subcmd__schema"
                ;;
            dsh__search__subcmd__help,serve)
                cmd="dsh__search__subcmd__help__subcmd__serve"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        dsh__search)
            opts="-h -V --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help --version glob grep call schema mcp serve generate help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__call)
            opts="-h --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help glob grep"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__generate)
            opts="-h --out-dir --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__glob)
            opts="-i -L -h --exclude --ignore-case --follow --offset --limit --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__grep)
            opts="-C -B -A -W -i -F -U -t -L -h --include --exclude --output --context --before --after --function-context --ignore-case --literal --multiline --type --follow --offset --limit --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --include)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "content files count" -- "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -B)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -A)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help)
            opts="glob grep call schema mcp serve generate help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__call)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__generate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__glob)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__grep)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__mcp)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__schema)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__mcp)
            opts="-h --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__schema)
            opts="-h --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        dsh__subcmd__search__subcmd__serve)
            opts="-h --idle-ms --status --cwd --glob-max-results --grep-max-matches --grep-max-line-bytes --raw-output-max-bytes --timeout-ms --rg --format --spill-dir --spill-hint --explain --mcp-structured --glob-sort --index --serve-after-ms --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --idle-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-max-results)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-matches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --grep-max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --raw-output-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rg)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --spill-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spill-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob-sort)
                    COMPREPLY=($(compgen -W "newest oldest path" -- "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -W "auto off" -- "${cur}"))
                    return 0
                    ;;
                --serve-after-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _dsh__search -o nosort -o bashdefault -o default dsh-search
else
    complete -F _dsh__search -o bashdefault -o default dsh-search
fi
