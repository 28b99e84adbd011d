#!/usr/bin/env bash
# Usage: regen_kill_each_step.sh MSLPORT WORKDIR (WORKDIR/src and WORKDIR/ref,
# its regen output, exist).
#
# Kills `mslport regen` with SIGKILL at each of its renames in turn, and at
# each flush (fsync) of its temporary files, by strace's fault injection:
# the kill lands exactly where a crash would hurt most, every run. After
# each kill, `mslport diff` (the next command to touch targets/) must find
# the set either wholly old or wholly new, and no temporary file left.
set -u
mslport=$1; t=$2
outputs=$(cd "$t/ref" && find . -type f ! -name '.regen-stamps' | sort)
count=$(echo "$outputs" | wc -l)

# "Old" targets: every file present with stale content.
make_old() {
  rm -rf "$t/targets"
  for f in $outputs; do mkdir -p "$t/targets/$(dirname "$f")"; echo "old $f" > "$t/targets/$f"; done
}

# Prints how many outputs are new and how many old; fails on anything else.
classify() {
  new=0; old=0
  for f in $outputs; do
    if cmp -s "$t/targets/$f" "$t/ref/$f"; then new=$((new + 1));
    elif [ "$(cat "$t/targets/$f" 2>/dev/null)" = "old $f" ]; then old=$((old + 1));
    else echo "$1: $f is neither old nor new"; exit 1; fi
  done
}

for syscall in rename,renameat,renameat2 fsync; do
  n=1
  while :; do
    make_old
    # In a subshell with its own stderr: the shell's "Killed" notice stays out.
    (strace -f -o /dev/null -e inject=$syscall:signal=KILL:when=$n "$mslport" regen "$t/src" --targets "$t/targets" \
      >/dev/null 2>&1) 2>/dev/null
    rc=$?
    "$mslport" diff "$t/src" --targets "$t/targets" >/dev/null 2>&1
    classify "killed at $syscall #$n"
    if [ $new -ne 0 ] && [ $old -ne 0 ]; then
      echo "killed at $syscall #$n: $new files new and $old old after recovery"; exit 1
    fi
    left=$(cd "$t/targets" && find . -type f ! -name '.regen-stamps' | sort)
    if [ "$left" != "$outputs" ]; then
      echo "killed at $syscall #$n: files other than the outputs remain:"; diff <(echo "$outputs") <(echo "$left"); exit 1
    fi
    [ $rc -eq 0 ] && break   # the regen ran to the end: every step was tried
    n=$((n + 1))
    [ $n -gt $((4 * count + 20)) ] && { echo "regen never finished"; exit 1; }
  done
  echo "$syscall: killed at each of $((n - 1)) steps, always old or new"
done
