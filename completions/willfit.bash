# bash completion for willfit                                 -*- shell-script -*-
# Installed as share/bash-completion/completions/willfit; also printed by
# `willfit completions bash`. Options, their values, subcommands, device and
# model names come from the binary (`willfit __complete ...`), so they match
# this build and the user's own database files.

# Bash splits words at ':' (it is in COMP_WORDBREAKS), so an Ollama tag such
# as "qwen2.5:7b" arrives as "qwen2.5" ":" "7b". Sets words/cword with such
# pieces joined again: a piece that follows the previous one on the line with
# no space between belongs to it. bash-completion's _get_comp_words_by_ref -n :
# does this when it is loaded; this is the fallback without it.
_willfit_join_words() {
    words=() cword=0
    local line=$COMP_LINE gap w i
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        gap=${line%%[![:space:]]*}
        line=${line#"$gap"}
        if ((i > 0)) && [[ -z $gap ]]; then
            words[${#words[@]} - 1]+=$w
        else
            words+=("$w")
        fi
        line=${line#"$w"}
        ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
    done
}

# Bash replaces only the piece after the last ':' of the word being
# completed, so candidates must drop what comes before it (as
# bash-completion's __ltrim_colon_completions does).
_willfit_trim_colon() {
    local cur=$1
    [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]] || return 0
    if declare -F __ltrim_colon_completions > /dev/null; then
        __ltrim_colon_completions "$cur"
        return 0
    fi
    local prefix=${cur%"${cur##*:}"} i
    for i in "${!COMPREPLY[@]}"; do
        COMPREPLY[i]=${COMPREPLY[i]#"$prefix"}
    done
}

_willfit() {
    local cur prev words cword
    if declare -F _get_comp_words_by_ref > /dev/null; then
        _get_comp_words_by_ref -n : cur prev words cword
    else
        _willfit_join_words
        cur=${words[cword]}
        prev=""
        ((cword > 0)) && prev=${words[cword - 1]}
    fi
    local bin=${words[0]}
    COMPREPLY=()
    _willfit_complete
    _willfit_trim_colon "$cur"
    return 0
}

# Fills COMPREPLY for cur/prev/words/cword/bin (set by _willfit).
_willfit_complete() {
    # The subcommand: the first word after "willfit" that names one.
    local cmd="" first=${words[1]:-}
    if ((cword > 1)); then
        local c
        for c in $("$bin" __complete commands 2>/dev/null); do
            [[ $first == "$c" ]] && cmd=$c
        done
    fi

    if [[ $cmd == completions ]]; then
        COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur"))
        return 0
    fi

    # The value of the option before the cursor.
    case "$prev" in
        -d|--device)
            _willfit_names devices
            [[ auto == "$cur"* ]] && COMPREPLY+=(auto)
            return 0 ;;
        --devices|--models)
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0 ;;
    esac
    # The values of an enumerated option, from the binary (precisions, KV
    # types, runtimes, vendors: the lists the program itself keeps).
    local values
    if [[ $prev == -* ]] && values=$("$bin" __complete values "$cmd" "$prev" 2>/dev/null); then
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
        return 0
    fi
    # Another option that takes a value (a number, a size): nothing to list.
    if [[ $prev == -* ]] &&
        "$bin" __complete valued $cmd 2>/dev/null | grep -qx -- "$prev"; then
        return 0
    fi

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$bin" __complete options $cmd 2>/dev/null)" -- "$cur"))
        return 0
    fi

    if ((cword == 1)); then
        _willfit_names models
        COMPREPLY+=($(compgen -W "$("$bin" __complete commands 2>/dev/null)" -- "$cur"))
        COMPREPLY+=($(compgen -f -- "$cur"))
        return 0
    fi
    case "$cmd" in
        device|devices) _willfit_names devices ;;
        models|train|which|max)
            _willfit_names models
            [[ $cmd == models ]] || COMPREPLY+=($(compgen -f -- "$cur")) ;;
        cost) ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
    return 0
}

# Adds to COMPREPLY the device or model names ($1: devices or models) that
# complete $cur. The binary matches on letters and digits ("rtx40" offers
# rtx4090) and answers in the user's spelling, so every candidate starts with
# what was typed. Inside a quote ("m3 m) the text after the quote is
# completed as is; outside one, spaces in a candidate are escaped.
_willfit_names() {
    local typed=$cur quoted="" line
    if [[ $typed == [\"\']* ]]; then
        quoted=1
        typed=${typed:1}
    fi
    typed=${typed//\\/}
    while IFS= read -r line; do
        if [[ -z $quoted ]]; then
            line=${line// /\\ }
        fi
        COMPREPLY+=("$line")
    done < <("$bin" __complete "$1" "$typed" 2>/dev/null)
}

complete -F _willfit willfit
