#!/usr/bin/env bash
# Drives the completion scripts in real shells, as a user's Tab would:
#   bash: sources completions/willfit.bash, checks `complete -p willfit`, sets
#         COMP_WORDS/COMP_CWORD and calls the function, reads COMPREPLY;
#   zsh (when installed): `zsh -f` with compinit, the _willfit function called
#         with words/CURRENT set and compadd recording what it is given;
#   fish (when installed): `complete -C` on command lines.
# Every long option on each command's --help option lines must be offered.
# A user devices.json and models.json (in a temporary XDG_CONFIG_HOME) must
# complete too. Usage: run.sh WILLFIT_BINARY COMPLETIONS_DIR
set -u
export HF_HUB_OFFLINE=1  # no test reaches the network (remote model names are never fetched here)
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/cfg/willfit"
ln -s "$bin" "$tmp/bin/willfit"
export PATH="$tmp/bin:$PATH" XDG_CONFIG_HOME="$tmp/cfg" HOME="$tmp"
cat > "$tmp/cfg/willfit/devices.json" <<'JSON'
{"schema_version": 1, "data_version": "2026-01-01", "devices": [
  {"id": "zz-lab-gpu", "vendor": "acme", "name": "Lab GPU", "kind": "discrete_gpu",
   "memory_bytes": 34359738368, "bandwidth_gb_per_s": 900, "source": "our lab"}]}
JSON
cat > "$tmp/cfg/willfit/models.json" <<'JSON'
{"models":[{"id":"zz-my-model-3b","params":3000000000,"layers":28,
  "hidden_size":3072,"intermediate_size":8192,"heads":24,"kv_heads":8,"vocab_size":128256,
  "aliases":["mine:3b"],"source":"my own notes"}]}
JSON

failures=0
fail() { echo "FAIL [$shell] $*"; failures=$((failures + 1)); }

# check CANDIDATES_FILE WANTED... : every wanted word is a candidate.
check() {
  local got=$1 line=$2; shift 2
  local w
  for w in "$@"; do
    grep -qxF -- "$w" "$got" || fail "'$line' does not offer '$w' (got: $(tr '\n' ' ' < "$got" | head -c 300))"
  done
}
# check_none CANDIDATES_FILE LINE: nothing is offered.
check_none() {
  [[ -s $1 ]] && fail "'$2' offers $(tr '\n' ' ' < "$1" | head -c 200)"
}

# The long options on a command's --help option lines (lines that start
# with spaces and a dash), read here independently of the binary's own parser.
help_options() {
  willfit "$@" --help | grep -E '^ +-' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

# Cases: a command line (the last word is the one being completed, "" for an
# empty word) and the words that must be offered.
run_cases() {  # $1: a function that completes "$@" and prints one candidate per line
  local complete_fn=$1 out="$tmp/out"
  $complete_fn willfit "" > "$out"; check "$out" "willfit ''" train devices device models completions llama-3.1-8b
  grep -qx '__complete' "$out" && fail "the hidden __complete is offered"
  $complete_fn willfit zz- > "$out"; check "$out" "willfit zz-" zz-my-model-3b
  $complete_fn willfit 7b -p "" > "$out"; check "$out" "willfit 7b -p" fp16 q4_k_m q8_0 nf4
  $complete_fn willfit 7b --runtime "" > "$out"; check "$out" "--runtime" llama.cpp ollama vllm transformers mlx generic
  $complete_fn willfit 7b --kv-type "" > "$out"; check "$out" "--kv-type" f16 q8_0 q4_0
  $complete_fn willfit 7b --flash-attn "" > "$out"; check "$out" "--flash-attn" auto on off
  $complete_fn willfit 7b -d rtx-40 > "$out"; check "$out" "-d rtx-40" rtx-4090 rtx-4060
  $complete_fn willfit 7b -d "" > "$out"; check "$out" "-d ''" auto rtx-4090
  $complete_fn willfit 7b --device zz > "$out"; check "$out" "--device zz" zz-lab-gpu
  $complete_fn willfit 7b --batch "" > "$out"; check_none "$out" "willfit 7b --batch ''"
  $complete_fn willfit train 7b --method "" > "$out"; check "$out" "--method" full lora qlora
  $complete_fn willfit train 7b --optimizer "" > "$out"; check "$out" "--optimizer" adamw adamw-8bit sgd lion adafactor
  $complete_fn willfit train 7b --checkpointing "" > "$out"; check "$out" "--checkpointing" none selective full
  $complete_fn willfit train 7b -p "" > "$out"; check "$out" "train -p" bf16 fp32
  $complete_fn willfit train 7b --zero "" > "$out"; check "$out" "--zero" 0 1 2 3
  $complete_fn willfit device zz > "$out"; check "$out" "device zz" zz-lab-gpu
  $complete_fn willfit devices --vendor "" > "$out"; check "$out" "--vendor" nvidia apple
  $complete_fn willfit models --json "" > "$out"
  $complete_fn willfit completions "" > "$out"; check "$out" "completions" bash zsh fish
  $complete_fn willfit 7b --units "" > "$out"; check "$out" "--units" si iec
  # Value lists come from the program: every precision and KV type it knows.
  $complete_fn willfit 7b -p iq1 > "$out"; check "$out" "-p iq1" iq1_s iq1_m
  $complete_fn willfit 7b --kv-type "" > "$out"; check "$out" "--kv-type" bf16 q5_1
  $complete_fn willfit max 7b -d 24gb -p "" > "$out"; check "$out" "max -p" best q4_k_m
  $complete_fn willfit which 7b --sort "" > "$out"; check "$out" "which --sort" price memory speed
  $complete_fn willfit 7b --ram-bandwidth "" > "$out"; check "$out" "--ram-bandwidth" ddr5-5600-dual
  # Names match on their letters and digits and complete in the user's
  # spelling, in every command that takes MODEL or -d, and in the last part
  # of a set ('+', a count).
  $complete_fn willfit 7b -d rtx40 > "$out"; check "$out" "-d rtx40" rtx4060 rtx4080 rtx4090
  $complete_fn willfit 7b -d '"m3 m' > "$out"; check "$out" "-d \"m3 m" "m3 max 36gb" "m3 max 128gb"
  $complete_fn willfit 7b -d '"2x rtx40' > "$out"; check "$out" "-d \"2x rtx40" "2x rtx4090"
  $complete_fn willfit 7b -d rtx-4090+rtx-30 > "$out"; check "$out" "-d rtx-4090+rtx-30" rtx-4090+rtx-3090
  $complete_fn willfit 7b -d 7900x > "$out"; check "$out" "-d 7900x" 7900xtx 7900xt
  $complete_fn willfit which llama3.1- > "$out"; check "$out" "which llama3.1-" llama3.1-8b llama3.1-70b
  $complete_fn willfit max llama-3.1- > "$out"; check "$out" "max llama-3.1-" llama-3.1-8b
  $complete_fn willfit max -d rtx40 > "$out"; check "$out" "max -d rtx40" rtx4090
  $complete_fn willfit train llama-3.1- > "$out"; check "$out" "train llama-3.1-" llama-3.1-8b
  $complete_fn willfit train 7b -d rtx40 > "$out"; check "$out" "train -d rtx40" rtx4090
  $complete_fn willfit train 7b -d rtx-4090+rtx-30 > "$out"; check "$out" "train -d rtx-4090+" rtx-4090+rtx-3090
  $complete_fn willfit cost -d 79 > "$out"; check "$out" "cost -d 79" 7900-xtx 7900-xt
  $complete_fn willfit device rtx40 > "$out"; check "$out" "device rtx40" rtx4090
  $complete_fn willfit devices m3-m > "$out"; check "$out" "devices m3-m" m3-max-128gb
  # An Ollama tag ("qwen2.5:7b") completes whole here; bash, which splits
  # words at ':', has its own case below.
  if [[ $shell != bash ]]; then
    $complete_fn willfit "$tag_head:$tag_start" > "$out"; check "$out" "willfit $tag_head:$tag_start" "$tag"
  fi
  local cmd
  for cmd in "" train devices device models; do
    local -a opts
    mapfile -t opts < <(help_options $cmd)
    [[ ${#opts[@]} -ge 2 ]] || fail "no options parsed from 'willfit $cmd --help'"
    if [[ -z $cmd ]]; then
      $complete_fn willfit 7b -- > "$out"
    else
      $complete_fn willfit $cmd -- > "$out"
    fi
    check "$out" "willfit $cmd --" "${opts[@]}"
  done
}

# A model name with a ':' from the catalogue (an Ollama tag such as
# qwen2.5:7b): its head, and the first letter after the last ':'.
tag=$(willfit __complete models qwen | grep -m1 ':')
[[ -n $tag ]] || { echo "FAIL: no model name with ':' from 'willfit __complete models qwen'"; exit 1; }
tag_head=${tag%:*}
tag_rest=${tag##*:}
tag_start=${tag_rest:0:1}

# ---- bash -----------------------------------------------------------------
shell=bash
source "$dir/willfit.bash"
complete -p willfit | grep -q -- '-F _willfit' || fail "complete -p willfit: $(complete -p willfit 2>&1)"
bash_complete() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _willfit willfit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
  return 0
}
run_cases bash_complete

# Readline splits the line at blanks and at each ':' (COMP_WORDBREAKS), so
# "willfit qwen2.5:7" reaches the function as (willfit qwen2.5 : 7) and bash
# then replaces only the text after the last ':'. Completes LINE at its end
# with the words split that way; prints the candidates.
bash_split_complete() {
  local line=$1 w
  local -a blank_words
  read -ra blank_words <<< "$line"
  COMP_WORDS=()
  for w in "${blank_words[@]}"; do
    while [[ $w == *:* ]]; do
      [[ -n ${w%%:*} ]] && COMP_WORDS+=("${w%%:*}")
      COMP_WORDS+=(":")
      w=${w#*:}
    done
    [[ -n $w ]] && COMP_WORDS+=("$w")
  done
  [[ $line == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMPREPLY=()
  _willfit willfit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
  return 0
}
out="$tmp/out"
bash_split_complete "willfit $tag_head:$tag_start" > "$out"
check "$out" "willfit $tag_head:$tag_start (split at ':')" "$tag_rest"
grep -qxF -- "$tag" "$out" && fail "'willfit $tag_head:$tag_start' offers '$tag' whole: bash would double the head"
bash_split_complete "willfit $tag_head:" > "$out"
check "$out" "willfit $tag_head: (split at ':')" "$tag_rest"
bash_split_complete "willfit train $tag_head:$tag_start" > "$out"
check "$out" "willfit train $tag_head:$tag_start (split at ':')" "$tag_rest"
bash_split_complete "willfit $tag -p " > "$out"
check "$out" "willfit $tag -p (split at ':')" q4_k_m q8_0
bash_split_complete "willfit $tag --" > "$out"
check "$out" "willfit $tag -- (split at ':')" --device --units
bash_split_complete "willfit 7b -d rtx-40" > "$out"
check "$out" "willfit 7b -d rtx-40 (no ':')" rtx-4090
# The script the binary prints is the one in the repository.
cmp -s <(willfit completions bash) "$dir/willfit.bash" || fail "willfit completions bash differs"

# ---- zsh ------------------------------------------------------------------
if command -v zsh > /dev/null; then
  shell=zsh
  # compinit scans every function directory once, into a dump file of this
  # run (the first call writes it, from the same fpath); each later call
  # reads it (-C) instead of scanning again, which was most of this test's time.
  zsh_complete() {
    zsh -f -c '
      fpath=("$1" $fpath)
      autoload -Uz compinit && compinit -u -C -d "$2"
      whence -w _willfit | grep -q function || { echo "no _willfit after compinit" >&2; exit 1; }
      compadd() { local a; for a in "$@"; do [[ $a == -- ]] || print -r -- "$a"; done }
      _files() { : }
      shift 2
      words=("$@"); CURRENT=$#
      _willfit' zsh "$dir" "$tmp/zcompdump" "$@"
  }
  run_cases zsh_complete
  cmp -s <(willfit completions zsh) "$dir/_willfit" || fail "willfit completions zsh differs"
else
  echo "zsh: not installed, skipped (apt-get install zsh)"
fi

# ---- fish -----------------------------------------------------------------
if command -v fish > /dev/null; then
  shell=fish
  fish_complete() {
    local line="$*"
    fish --no-config -c "source '$dir/willfit.fish'; complete -C '$line'" | cut -f1
  }
  run_cases fish_complete
else
  echo "fish: not installed, skipped"
fi

if ((failures)); then
  echo "$failures completion check(s) failed"
  exit 1
fi
echo "completions: all checks passed"
