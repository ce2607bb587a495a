#!/usr/bin/env bash
# bootstrap_plan_test.sh SOURCE_DIR - `bash scripts/bootstrap.sh demo` installs
# and builds only what the demo needs: its Debian packages leave out the test
# suite's (CUnit, MPI, clang, pytest, VTK, help2man), and its configure line
# (`bootstrap.sh plan demo`) configures without CUnit (pkg-config refuses it
# here) and without MPI, with the command as a target and no test target.
# And `bootstrap.sh test` installs what the suite uses on a fresh Debian: the
# provider of every program a CMake file looks for and of every module the
# Python code imports.
# Registered with ctest as bootstrap_demo_plan (tests/CMakeLists.txt).
set -u
src=$1
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

demo=$(bash "$src/scripts/bootstrap.sh" plan demo) || { echo "plan demo failed"; exit 1; }
test=$(bash "$src/scripts/bootstrap.sh" plan test) || { echo "plan test failed"; exit 1; }
demo_pkgs=" $(sed -n 's/^packages: //p' <<<"$demo") "
test_pkgs=" $(sed -n 's/^packages: //p' <<<"$test") "
for p in libsundials-dev libsuitesparse-dev libmetis-dev libyaml-dev libmatio-dev gnuplot-nox \
         cmake pkg-config build-essential; do
  [[ $demo_pkgs == *" $p "* ]] || fail "the demo needs $p"
done
for p in libcunit1-dev libopenmpi-dev openmpi-bin clang libclang-rt-14-dev python3-pytest \
         python3-vtk9 help2man; do
  [[ $demo_pkgs == *" $p "* ]] && fail "the demo installs $p (tests only)"
  [[ $test_pkgs == *" $p "* ]] || fail "the test suite needs $p"
done
for p in $demo_pkgs; do
  [[ $test_pkgs == *" $p "* ]] || fail "test lacks the demo's $p"
done
echo "ok   packages: demo ${demo_pkgs}"

# every program the build or the tests look for (find_program) comes from a
# Debian package `test` installs (bash is essential)
declare -A provider=([gnuplot]=gnuplot-nox [help2man]=help2man [mpirun]=openmpi-bin
                     [mpiexec]=openmpi-bin [python3]=python3 [bash]=bash)
progs=$(cat "$src/CMakeLists.txt" "$src"/cmake/*.cmake "$src"/*/CMakeLists.txt 2>/dev/null |
        sed -nE 's/.*find_program\( *[A-Za-z0-9_]+ +(NAMES +)?([a-z0-9_.+-]+).*/\2/p' | sort -u)
for p in $progs; do
  pkg=${provider[$p]:-}
  if [ -z "$pkg" ]; then fail "program $p: no Debian package known to this test"
  elif [ "$pkg" != bash ] && [[ $test_pkgs != *" $pkg "* ]]; then
    fail "program $p: test does not install $pkg"
  fi
done
echo "ok   programs:" $progs

# every module the Python code imports (python/, scripts/*.py) is the
# standard library, the package itself, or a Debian package `test` installs
# (optional ones too: what the suite would skip without them runs in CI)
declare -A debian=([numpy]=python3-numpy [pytest]=python3-pytest [pandas]=python3-pandas
                   [vtk]=python3-vtk9 [matplotlib]=python3-matplotlib)
py=/usr/bin/python3; [ -x $py ] || py=$(command -v python3)
if [ -n "$py" ]; then
  mods=$("$py" - "$src" <<'EOF'
import pathlib, re, sys
src = pathlib.Path(sys.argv[1])
mods = set()
for f in list(src.glob("python/**/*.py")) + list(src.glob("scripts/*.py")):
    for line in f.read_text().splitlines():
        m = re.match(r"\s*(?:import\s+(\w+)|from\s+(\w+)[\w.]*\s+import\b)", line)
        if m:
            mods.add(m.group(1) or m.group(2))
        mods.update(re.findall(r"importorskip\(\s*[\"'](\w+)", line))
print(" ".join(sorted(m for m in mods if m not in sys.stdlib_module_names and m != "mbdae")))
EOF
  ) || fail "could not list the Python imports"
  for m in $mods; do
    pkg=${debian[$m]:-}
    if [ -z "$pkg" ]; then fail "python module $m: no Debian package known to this test"
    elif [[ $test_pkgs != *" $pkg "* ]]; then fail "python module $m: test does not install $pkg"
    fi
  done
  echo "ok   python modules: $mods"
else
  echo "skip python modules: no python3"
fi

# the demo's configure line, with a pkg-config that refuses CUnit
read -r -a configure <<<"$(sed -n 's/^configure: //p' <<<"$demo")"
read -r -a targets <<<"$(sed -n 's/^targets: //p' <<<"$demo")"
real_pc=$(command -v pkg-config)
cat >"$scratch/pkg-config" <<EOF
#!/bin/sh
echo "\$*" >>"$scratch/pkg-config.log"
case " \$* " in *cunit*) exit 1 ;; esac
exec "$real_pc" "\$@"
EOF
chmod +x "$scratch/pkg-config"
if cmake -S "$src" -B "$scratch/build" -G "Unix Makefiles" "${configure[@]}" \
     -DPKG_CONFIG_EXECUTABLE="$scratch/pkg-config" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
     >"$scratch/configure.log" 2>&1; then
  echo "ok   configured without CUnit and MPI: ${configure[*]}"
else
  fail "the demo's configure needs more than the demo's packages:"
  tail -n 20 "$scratch/configure.log"
fi
grep -q cunit "$scratch/pkg-config.log" 2>/dev/null && fail "the demo's configure asks for CUnit"
grep -q "MPI not used" "$scratch/configure.log" ||
  fail "the demo's configure uses MPI: $(grep -w MPI "$scratch/configure.log" | head -n 3)"
grep -q "^MPI_C_FOUND:.*TRUE" "$scratch/build/CMakeCache.txt" && fail "the demo build found MPI"
help=$(make -C "$scratch/build" help 2>/dev/null)
for t in "${targets[@]}"; do
  grep -qx "\.\.\. $t" <<<"$help" || fail "no target $t in the demo build"
done
grep -q '^\.\.\. test_' <<<"$help" && fail "the demo build has test targets"
grep -q '^\.\.\. example_' <<<"$help" && fail "the demo build has example targets"
echo "ok   targets: ${targets[*]}"

if ((failures)); then
  echo "bootstrap plan: $failures failures"
  exit 1
fi
echo "bootstrap plan: all checks passed"
