# fish completion for willfit. Installed as
# share/fish/vendor_completions.d/willfit.fish; also printed by
# `willfit completions fish`. Options, subcommands, device and model names come
# from the binary (`willfit __complete ...`), so they match this build and the
# user's own database files.

function __willfit_cmd
    # The subcommand on the command line, or "" for the default fit command.
    set -l words (commandline -opc)
    if test (count $words) -ge 2
        if contains -- $words[2] (willfit __complete commands 2>/dev/null)
            echo $words[2]
        end
    end
end

function __willfit_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd (__willfit_cmd)
    set -l prev $words[-1]
    if test "$cmd" = completions
        printf '%s\n' bash zsh fish
        return
    end
    switch "$cmd:$prev"
        case ':-p' ':--precision'
            printf '%s\n' fp32 fp16 bf16 fp8 int8 int4 q8_0 q6_k q5_k_m q5_k_s q5_0 q4_k_m q4_k_s q4_0 q3_k_m q3_k_s q2_k iq4_xs iq3_xxs iq2_xxs mxfp4 q8 q6 q5 q4 q3 q2 nf4 gptq awq
        case 'train:-p' 'train:--precision'
            printf '%s\n' bf16 fp16 fp32 fp8
        case '*:--runtime'
            printf '%s\n' llama.cpp ollama vllm transformers mlx generic
        case '*:--kv-type'
            printf '%s\n' f16 q8_0 q4_0
        case '*:--cpu-features'
            printf '%s\n' avx2 avx512 neon none
        case 'train:--flash-attn'
            printf '%s\n' on off
        case '*:--flash-attn'
            printf '%s\n' auto on off
        case '*:--split'
            printf '%s\n' layer tensor
        case '*:-c' '*:--context'
            printf '%s\n' 2048 4096 8192 16k 32k 64k 128k max
        case '*:-s' '*:--seq-len'
            printf '%s\n' 512 1024 2048 4096 8192 16k 32k
        case '*:--method'
            printf '%s\n' full lora qlora
        case '*:--optimizer'
            printf '%s\n' adamw adamw-8bit sgd sgd-momentum adafactor lion
        case '*:--master-weights'
            printf '%s\n' fp32 none
        case '*:--grad-dtype'
            printf '%s\n' bf16 fp16 fp32 bf16+fp32
        case '*:--checkpointing'
            printf '%s\n' none selective full
        case '*:--zero'
            printf '%s\n' 0 1 2 3
        case '*:--lora-targets'
            printf '%s\n' q_proj,v_proj all-linear q_proj k_proj v_proj o_proj gate_proj up_proj down_proj
        case '*:--vendor'
            printf '%s\n' nvidia amd apple intel google
        case '*:--ram-bandwidth'
            printf '%s\n' ddr4-3200-dual ddr5-5600-dual
        case '*:--units'
            printf '%s\n' si iec
        case '*:--color'
            printf '%s\n' auto always never
        case 'cost:--hours-per-day'
            printf '%s\n' 1 2 4 8 12 24
        case 'cost:--years'
            printf '%s\n' 1 2 3 4 5
        case 'train:-d' 'train:--device'
            printf '%s\n' 8gb 12gb 16gb 24gb 40gb 48gb 80gb
        case '*:-d' '*:--device'
            echo auto
            willfit __complete devices $cur 2>/dev/null
        case '*:--devices' '*:--models'
            __fish_complete_path $cur
        case '*'
            if string match -q -- '-*' $prev; and contains -- $prev (willfit __complete valued $cmd 2>/dev/null)
                return  # a number or a size: nothing to list
            end
            if string match -q -- '-*' $cur
                willfit __complete options $cmd 2>/dev/null
            else if test (count $words) -eq 1
                willfit __complete commands 2>/dev/null
                willfit __complete models $cur 2>/dev/null
                __fish_complete_path $cur
            else if test "$cmd" = device
                willfit __complete devices $cur 2>/dev/null
            else if test "$cmd" = models -o "$cmd" = train
                willfit __complete models $cur 2>/dev/null
            else if test "$cmd" = ""
                __fish_complete_path $cur
            end
    end
end

complete -c willfit -f -a '(__willfit_complete)'
