# bash completion for cvpdf                                 -*- shell-script -*-
# Installed by `make install` into share/bash-completion/completions/cvpdf.

# The shipped layouts' names: the first word of each `cvpdf --list-layouts` line.
_cvpdf_layouts()
{
    "${1:-cvpdf}" --list-layouts 2>/dev/null | while read -r name _; do
        printf '%s\n' "$name"
    done
}

# YAML files (and, with a second argument, JSON ones: a resume.json is a
# profile too) and directories (without extglob, which bash-completion
# sets but plain bash does not).
_cvpdf_yaml()
{
    COMPREPLY+=($(compgen -f -X '!*.yaml' -- "$1") $(compgen -f -X '!*.yml' -- "$1"))
    [[ -n $2 ]] && COMPREPLY+=($(compgen -f -X '!*.json' -- "$1"))
    COMPREPLY+=($(compgen -d -S / -- "$1"))
}

_cvpdf()
{
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -s || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local cmd=${words[0]}
    # --option=value: without bash-completion's -s, "=" is a word of its own.
    if [[ $prev == = && $cword -gt 2 ]]; then
        prev=${words[cword-2]} split=true
    fi

    # cvpdf import FILE.bib [--section NAME]
    if [[ $cword -gt 1 && ${words[1]} == import ]]; then
        case $prev in
            --section)
                COMPREPLY=($(compgen -W "publications" -- "$cur"))
                return ;;
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--section --quiet --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -X '!*.bib' -- "$cur") $(compgen -d -S / -- "$cur"))
        fi
        return
    fi

    # cvpdf new "Full Name" [--layout NAME]
    if [[ $cword -gt 1 && ${words[1]} == new ]]; then
        case $prev in
            -l|--layout)
                COMPREPLY=($(compgen -W "$(_cvpdf_layouts "$cmd")" -- "$cur"))
                return ;;
        esac
        [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--layout --help" -- "$cur"))
        return
    fi

    # cvpdf migrate FILE: a RenderCV file (YAML) or a resume.json
    if [[ $cword -eq 2 && ${words[1]} == migrate ]]; then
        COMPREPLY=()
        _cvpdf_yaml "$cur"
        COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur"))
        return
    fi

    # --dump=glyphs: only in that form, as --dump alone takes no value.
    if [[ $prev == --dump && $split == true ]]; then
        COMPREPLY=($(compgen -W "glyphs" -- "$cur"))
        return
    fi

    case $prev in
        -l|--layout)
            # A shipped layout's name, or a layout file.
            COMPREPLY=($(compgen -W "$(_cvpdf_layouts "$cmd")" -- "$cur"))
            _cvpdf_yaml "$cur"
            compopt -o nospace 2>/dev/null
            [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} != */ ]] && compopt +o nospace 2>/dev/null
            return ;;
        -o|--output|--merge)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --site)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        --defaults)
            COMPREPLY=()
            _cvpdf_yaml "$cur"
            return ;;
        --schema)
            COMPREPLY=($(compgen -W "profile layout" -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W "pdf png svg html md" -- "$cur"))
            return ;;
        --dpi)
            COMPREPLY=($(compgen -W "72 96 144 300" -- "$cur"))
            return ;;
        --set)
            # PATH=VALUE: the first key of PATH (the rest is the file's).
            COMPREPLY=($(compgen -W "cv. settings. locale. design. layout." -- "$cur"))
            compopt -o nospace 2>/dev/null
            return ;;
        -j|--jobs|--timeout|--fit-pages|--date)
            return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--layout --output --dump --dump=glyphs --strict --fit-pages
            --explain --date --pdfa --pdfua --defaults --jobs --timeout --merge --quiet --help
            --version --list-layouts --datadir --schema --format --dpi --watch --set --open --site
            -l -o -j -q -h -V" -- "$cur"))
        return
    fi
    # Profiles (and, first, the words new and migrate).
    COMPREPLY=()
    _cvpdf_yaml "$cur" json
    [[ $cword -eq 1 ]] && COMPREPLY+=($(compgen -W "new import migrate" -- "$cur"))
}
complete -F _cvpdf -o filenames cvpdf
