"""compare_flags.py CFLAGS ARGV: the line `mslport --cflags` printed (CFLAGS,
shell-quoted) is exactly what `mslport check` passed its compiler (ARGV, one
argument a line), less what makes the module check loads and the file names."""
import shlex
import sys

cflags = shlex.split(open(sys.argv[1]).read())
argv = open(sys.argv[2]).read().splitlines()
module_only = ["-shared", "-fPIC", "-DMSLPORT_RUNNER_MODULE"]
out = argv.index("-o")
got = [a for a in argv[:out] if a not in module_only and not a.endswith(".cpp")]
assert argv[out + 1:] and argv[out + 1].endswith(".so"), argv
assert all(m in argv for m in module_only), argv
if got != cflags:
    sys.exit("--cflags: %s\ncheck:    %s" % (cflags, got))
print("same %d flags" % len(cflags))
