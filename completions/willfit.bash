# bash completion for willfit                                 -*- shell-script -*-
# Installed as share/bash-completion/completions/willfit; also printed by
# `willfit completions bash`. Options, subcommands, device and model names
# come from the binary (`willfit __complete ...`), so they match this build and
# the user's own database files; the values of enumerated options are listed here.

_willfit_values() {
    # The values an option takes, by subcommand ("" is the default fit command).
    local cmd=$1 opt=$2
    case "$cmd:$opt" in
        :-p|:--precision)
            echo "fp32 fp16 bf16 fp8 int8 int4 q8_0 q6_k q5_k_m q5_k_s q5_0 q4_k_m q4_k_s q4_0 q3_k_m q3_k_s q2_k iq4_xs iq3_xxs iq2_xxs mxfp4 q8 q6 q5 q4 q3 q2 nf4 gptq awq" ;;
        train:-p|train:--precision) echo "bf16 fp16 fp32 fp8" ;;
        *:--runtime) echo "llama.cpp ollama vllm transformers mlx generic" ;;
        *:--kv-type) echo "f16 q8_0 q4_0" ;;
        *:--cpu-features) echo "avx2 avx512 neon none" ;;
        train:--flash-attn) echo "on off" ;;
        *:--flash-attn) echo "auto on off" ;;
        *:--split) echo "layer tensor" ;;
        *:-c|*:--context) echo "2048 4096 8192 16k 32k 64k 128k max" ;;
        *:-s|*:--seq-len) echo "512 1024 2048 4096 8192 16k 32k" ;;
        *:--method) echo "full lora qlora" ;;
        *:--optimizer) echo "adamw adamw-8bit sgd sgd-momentum adafactor lion" ;;
        *:--master-weights) echo "fp32 none" ;;
        *:--grad-dtype) echo "bf16 fp16 fp32 bf16+fp32" ;;
        *:--checkpointing) echo "none selective full" ;;
        *:--zero) echo "0 1 2 3" ;;
        *:--lora-targets) echo "q_proj,v_proj all-linear q_proj k_proj v_proj o_proj gate_proj up_proj down_proj" ;;
        *:--vendor) echo "nvidia amd apple intel google" ;;
        *:--ram-bandwidth) echo "ddr4-3200-dual ddr5-5600-dual" ;;
        *:--units) echo "si iec" ;;
        *:--color) echo "auto always never" ;;
        cost:--hours-per-day) echo "1 2 4 8 12 24" ;;
        cost:--years) echo "1 2 3 4 5" ;;
        *) return 1 ;;
    esac
}

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
            if [[ $cmd == train ]]; then
                COMPREPLY=($(compgen -W "8gb 12gb 16gb 24gb 40gb 48gb 80gb" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "auto $("$bin" __complete devices "$cur" 2>/dev/null)" -- "$cur"))
            fi
            return 0 ;;
        --devices|--models)
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0 ;;
    esac
    local values
    if values=$(_willfit_values "$cmd" "$prev"); then
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
        COMPREPLY=($(compgen -W "$("$bin" __complete commands 2>/dev/null) $("$bin" __complete models "$cur" 2>/dev/null)" -- "$cur"))
        compopt -o filenames 2>/dev/null
        COMPREPLY+=($(compgen -f -- "$cur"))
        return 0
    fi
    case "$cmd" in
        device) COMPREPLY=($(compgen -W "$("$bin" __complete devices "$cur" 2>/dev/null)" -- "$cur")) ;;
        devices) ;;
        models|train) COMPREPLY=($(compgen -W "$("$bin" __complete models "$cur" 2>/dev/null)" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
    return 0
}

complete -F _willfit willfit
