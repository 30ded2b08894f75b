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
    # The token being completed, without its quotes ('m3 m -> m3 m): the
    # binary matches names on letters and digits and answers in this spelling.
    set -l cur (commandline -ct | string trim -l -c "'\"")
    set -l cmd (__willfit_cmd)
    set -l prev $words[-1]
    if test "$cmd" = completions
        printf '%s\n' bash zsh fish
        return
    end
    # The values of an enumerated option, from the binary.
    if string match -q -- '-*' $prev
        set -l values (willfit __complete values "$cmd" $prev 2>/dev/null)
        and begin
            printf '%s\n' $values
            return
        end
    end
    switch "$cmd:$prev"
        case '*:-d' '*:--device'
            echo auto
            willfit __complete devices "$cur" 2>/dev/null
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
                willfit __complete models "$cur" 2>/dev/null
                __fish_complete_path $cur
            else if contains -- "$cmd" device devices
                willfit __complete devices "$cur" 2>/dev/null
            else if test "$cmd" = models
                willfit __complete models "$cur" 2>/dev/null
            else if contains -- "$cmd" train which max
                willfit __complete models "$cur" 2>/dev/null
                __fish_complete_path $cur
            else if test "$cmd" = ""
                __fish_complete_path $cur
            end
    end
end

complete -c willfit -f -a '(__willfit_complete)'
