#!/usr/bin/env bash
# completion_test.sh MBDAE COMPLETION - the bash completion
# (scripts/completion/mbdae.bash) driven as bash drives it: COMP_WORDS and
# COMP_CWORD set for a typed line, _mbdae called, COMPREPLY checked.
# Registered with ctest as completion_bash (tests/CMakeLists.txt).
set -u
mbdae=$1
source "$2" || { echo "cannot source $2"; exit 1; }
failures=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1 # no scenarios/ here: names come from the shipped ones
mkdir rundir
touch mine.yaml other.txt

complete_line() { # the words typed, the last one being completed ("" for a new word)
  COMP_WORDS=("$mbdae" "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _mbdae
  printf '%s\n' "${COMPREPLY[@]}"
}

expect() { # description, line words..., ::, wanted entries...
  local what=$1 words=() wanted=() got
  shift
  while [[ $1 != "::" ]]; do words+=("$1"); shift; done
  shift
  wanted=("$@")
  got=$(complete_line "${words[@]}")
  for w in "${wanted[@]}"; do
    if ! grep -qxF -- "$w" <<<"$got"; then
      echo "FAIL $what: '$w' not offered for 'mbdae ${words[*]}'; got:"
      sed 's/^/    /' <<<"$got" | head -n 20
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok   $what"
}

refuse() { # description, line words..., ::, entries that must not appear...
  local what=$1 words=() got
  shift
  while [[ $1 != "::" ]]; do words+=("$1"); shift; done
  shift
  got=$(complete_line "${words[@]}")
  for w in "$@"; do
    if grep -qxF -- "$w" <<<"$got"; then
      echo "FAIL $what: '$w' offered for 'mbdae ${words[*]}'"
      failures=$((failures + 1))
      return
    fi
  done
  echo "ok   $what"
}

expect "commands" "" :: run resume list validate sweep help
expect "global options" --p :: --plugin
expect "run options (from mbdae help run)" run -- :: --out --set --quiet --no-plots --format \
  --checkpoint-every --plugin --help
expect "sweep options" sweep --no :: --no-plots
expect "resume options" resume -- :: --quiet
expect "shipped scenario by name" run bal :: ball.yaml ball
expect "shipped study by name" sweep ravine_study_c :: ravine_study_ci.yaml ravine_study_ci
refuse "no study for run" run ravine_study_c :: ravine_study_ci.yaml ravine_study_ci
refuse "no scenario for sweep" sweep bal :: ball.yaml ball
expect "scenario files here" run m :: mine.yaml
refuse "not a scenario file" run o :: other.txt
expect "--set: solver keys" run ball.yaml --set solver.t_ :: solver.t_end=
expect "--set: the scenario's model parameters" run ball --set parameters. :: parameters.e= \
  parameters.h0=
expect "--set: parameters of a file's model" run mine.yaml -s output. :: output.vtk=
expect "--format" run ball --format "" :: csv mat both
expect "--out: directories" run ball --out r :: rundir
expect "resume: directories" resume r :: rundir
expect "list --params: model kinds" list --params b :: bouncing_ball billiard
expect "help COMMAND" help r :: run resume
expect "validate: case names" validate capture_p :: capture_prism
# every option a help text lists is offered (the completion reads the help)
for cmd in run resume list validate sweep; do
  opts=$("$mbdae" help "$cmd" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
  got=$(complete_line "$cmd" --)
  for o in $opts; do
    grep -qxF -- "$o" <<<"$got" || { echo "FAIL $cmd: $o missing"; failures=$((failures + 1)); }
  done
done

if ((failures)); then
  echo "completion: $failures failures"
  exit 1
fi
echo "completion: all checks passed"
