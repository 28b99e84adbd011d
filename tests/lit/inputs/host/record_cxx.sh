#!/bin/sh
# A C++ compiler that only records its arguments, one a line, into
# $MSLPORT_TEST_ARGV, and fails.
printf '%s\n' "$@" > "$MSLPORT_TEST_ARGV"
exit 1
