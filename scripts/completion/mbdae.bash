# bash completion for mbdae (installed as
# <prefix>/share/bash-completion/completions/mbdae; or `source` this file).
# Everything it offers comes from the command itself, so it cannot drift:
# the commands and their options from `mbdae help COMMAND`, scenario names
# from `mbdae list`, --set keys from `mbdae list --solver` and
# `mbdae list --params MODEL` (MODEL from the scenario on the line).

_mbdae_commands="run resume list validate sweep help"

# the options of one command (or of mbdae itself), from its help text
_mbdae_options() { # mbdae-path [command]
  local text
  if [[ -n $2 ]]; then text=$("$1" help "$2" 2>/dev/null); else text=$("$1" --help 2>/dev/null); fi
  printf '%s\n' "$text" | grep -oE -- '(^|[][ ,])--?[A-Za-z][A-Za-z-]*' |
    sed -E 's/^[][ ,]//' | sort -u
}

# the shipped scenarios' (or studies') file names and stems, from the
# "Scenarios in DIR:" (or "Studies in DIR/studies ...:") part of `mbdae list`
_mbdae_scenarios() { # mbdae-path [Scenarios|Studies]
  "$1" list 2>/dev/null | awk -v head="^${2:-Scenarios} in " '
    $0 ~ head { on = 1; next } /^[^ ]/ { on = 0 }
    on && /^  [^ ]+\.yaml( |$)/ { print $1; sub(/\.yaml$/, "", $1); print $1 }'
}

# --set keys: solver.* and output.* and, when the scenario names its model,
# parameters.* (each with '=' appended)
_mbdae_set_keys() { # mbdae-path scenario
  local model="" file=$2
  if [[ -n $file && ! -f $file && $file != */* ]]; then
    local dir
    dir=$("$1" list 2>/dev/null | sed -n 's/^Scenarios in \(.*\):$/\1/p' | head -n 1)
    if [[ -f $dir/$file ]]; then file=$dir/$file; elif [[ -f $dir/$file.yaml ]]; then file=$dir/$file.yaml; fi
  fi
  if [[ -n $file && -f $file ]]; then
    model=$(sed -n 's/^model:[[:space:]]*\([A-Za-z0-9_]*\).*/\1/p' "$file" | head -n 1)
  fi
  {
    "$1" list --solver 2>/dev/null
    [[ -n $model ]] && "$1" list --params "$model" 2>/dev/null
  } | awk '/^[a-z_]+:$/ { sec = substr($1, 1, length($1) - 1); next }
           sec != "" && /^  [a-z_0-9]+ / && $1 != "key" { print sec "." $1 "=" }'
}

# no space after a directory or a key= (more to type)
_mbdae_nospace_if_open() {
  local c
  for c in "${COMPREPLY[@]}"; do
    [[ $c == */ || $c == *= ]] && { compopt -o nospace 2>/dev/null; return; }
  done
}

_mbdae() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local mbdae=${COMP_WORDS[0]} cmd="" scenario="" i w
  # the command and the scenario already on the line (--plugin FILE skipped)
  for ((i = 1; i < COMP_CWORD; ++i)); do
    w=${COMP_WORDS[i]}
    case $w in
      --plugin|--out|-o|--set|-s|--format|-f|--params|-p|--checkpoint-every) ((++i)); continue ;;
      -*) continue ;;
    esac
    if [[ -z $cmd ]]; then cmd=$w; elif [[ -z $scenario ]]; then scenario=$w; fi
  done
  COMPREPLY=()
  case $prev in
    --plugin)
      COMPREPLY=($(compgen -f -X '!*.so' -- "$cur") $(compgen -d -S / -- "$cur"))
      _mbdae_nospace_if_open
      return ;;
    --out|-o)
      COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --format|-f)
      COMPREPLY=($(compgen -W "csv mat both" -- "$cur")); return ;;
    --params|-p)
      COMPREPLY=($(compgen -W "$("$mbdae" list 2>/dev/null |
        awk '/^Model kinds:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }')" -- "$cur"))
      return ;;
    --set|-s)
      COMPREPLY=($(compgen -W "$(_mbdae_set_keys "$mbdae" "$scenario")" -- "$cur"))
      _mbdae_nospace_if_open
      return ;;
    --checkpoint-every)
      return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_mbdae_options "$mbdae" "$cmd")" -- "$cur"))
    return
  fi
  case $cmd in
    "")
      COMPREPLY=($(compgen -W "$_mbdae_commands" -- "$cur")) ;;
    help)
      [[ -z $scenario ]] && COMPREPLY=($(compgen -W "$_mbdae_commands" -- "$cur")) ;;
    run|sweep)
      if [[ -z $scenario ]]; then
        COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -d -S / -- "$cur"))
        if [[ $cur != */* ]]; then
          local what=Scenarios; [[ $cmd == sweep ]] && what=Studies
          COMPREPLY+=($(compgen -W "$(_mbdae_scenarios "$mbdae" $what)" -- "$cur"))
        fi
        _mbdae_nospace_if_open
      fi ;;
    resume)
      [[ -z $scenario ]] && COMPREPLY=($(compgen -d -- "$cur")) ;;
    validate)
      COMPREPLY=($(compgen -W "$("$mbdae" validate --list 2>/dev/null | awk 'NF { print $1 }')" \
        -- "$cur")) ;;
  esac
}
complete -F _mbdae mbdae
