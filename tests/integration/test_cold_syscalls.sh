#!/usr/bin/env bash
# The system calls of a cold `mcphost tools` against the demo server,
# counted in strace's trace of the whole tree (mcphost, the server's
# child before its exec, the guardian and its start), once a first run has found what
# is kept across runs (the protocol era, the server's roots verdict, the
# completion names):
#   - no session listens: one lstat of its socket, the directory of the
#     sessions not walked;
#   - each stub plugin read from one read of its head (its check and its
#     note), its owner known from the checked open (no fstat again, no
#     readlink of /proc/self/fd), its implementation checked in "impl"
#     beside the plugin directory (no second walk from "/");
#   - a server that asked no roots/list when told initialized at its
#     last start is sent no ping: the listing goes at once;
#   - completion names that did not change are not written again;
#   - the server's child and the guardian's start set only the signals
#     not so already (a handful of sigaction calls, not one a signal);
#     the guardian itself makes only its loop's calls;
#   - one waitid for the server's exit, stdout asked once whether it is a
#     terminal, a --mcp-config file read once;
#   - the working directory as getcwd() names it, not resolved again (a
#     readlink a component).
# The whole tree's count is bound too, the checks of trusted directories
# (a stat a component) apart, as their depth is the machine's.
. "$(dirname "$0")/../lib/lib.sh"
command -v strace >/dev/null || skip_test "no strace (scripts/deps.sh test installs it)"
strace -o /dev/null true 2>/dev/null || skip_test "strace cannot trace here"
: >"$TMP/out" # what a failed check shows

# A directory of sessions that exists (one was started here once): the
# walk to it is what no session listening must not cost.
export XDG_RUNTIME_DIR="$TMP/runtime-dir"
mkdir -p -m 700 "$XDG_RUNTIME_DIR/mcphost"
C="$TMP/cold.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"
# Run from a directory of the test's own, short (strace's -s 96 shows it
# whole) and no parent of $HOME (whose parents realpath() does read).
mkdir "$TMP/cwd"
cd "$TMP/cwd" || exit 1
# traced TRACE: `tools` under strace -f into TRACE; sets RC, OUT, ERR.
# (LeakSanitizer cannot run under ptrace: an ASan build's leak check is
# off here, the other tests have it.)
traced() {
  ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
    strace -f -s 96 -o "$1" "$MCPHOST" --config "$C" tools \
    >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
PING='writev(.*method\\":\\"ping'
traced "$TMP/first"
expect "a first cold tools lists the demo server's tools" 0 --out "mcp__demo__echo"
check "  after a ping that found whether it asks for roots" \
  test "$(grep -c "$PING" "$TMP/first")" = 1
check "  and keeps that it asked none" \
  jqf '.rootsQuiet | startswith("mcphost-demo\n")' "$XDG_STATE_HOME/mcphost/protocol/demo.json"

traced "$TMP/trace"
expect "the same listing again, cold" 0 --out "mcp__demo__echo"

# Each line "PID call(...)": strace's "<... resumed>" halves are one call.
grep -v ' <\.\.\. [a-z0-9_]* resumed>\| +++ \| --- ' "$TMP/trace" >"$TMP/calls"
MAIN=$(head -1 "$TMP/calls" | cut -d' ' -f1)
SERVER=$(grep -F "execve(\"$DEMO\"" "$TMP/calls" | cut -d' ' -f1)
GUARD=$(grep -F 'PR_SET_NAME, "mcphost-guard"' "$TMP/calls" | cut -d' ' -f1)
# The guardian's start: the vfork() child that makes it (clone(), of its
# memory or a fork), the one whose clone() gave the guardian's pid.
START=$(grep -E "^[0-9]+ +(clone\(|<\.\.\. clone resumed>).* = $GUARD\$" "$TMP/trace" |
  head -1 | cut -d' ' -f1)
check "  the trace shows mcphost, the server, the guardian and its start" \
  test -n "$MAIN" -a -n "$SERVER" -a -n "$GUARD" -a -n "$START"
of() { grep "^$1 " "$TMP/calls" | sed 's/^[0-9]* *//'; }
of "$MAIN" >"$TMP/main"
# The server's child up to its exec: what mcphost's code makes there.
of "$SERVER" | sed '/^execve(/q' >"$TMP/child"
of "$GUARD" >"$TMP/guard"
of "$START" >"$TMP/start"
count() { grep -c -- "$2" "$TMP/$1"; }

check "no session listens: the directory of the sessions is not walked" \
  test "$(count main '"runtime-dir"')" = 0
check "  one lstat of the socket says so" \
  test "$(count main 'runtime-dir/mcphost/session-')" = 1
check "no stub's file asked its name again (readlink /proc/self/fd)" \
  test "$(count main '^readlink("/proc/self/fd/')" = 0
check "the working directory is not resolved again (getcwd's name has no link)" \
  test "$(count main "^readlink\(at\)\?(\(AT_FDCWD, \)\?\"$(pwd -P)\"")" = 0
walks=$(count main '^openat(AT_FDCWD, "/", ')
check "no walk of descriptors from \"/\": every path plain ($walks)" \
  test "$walks" = 0
opens=$(count main '^openat(AT_FDCWD, "/[^"]*", O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_DIRECTORY)')
check "  four trusted directories opened, each by its path once checked (plugins, logs, protocol, state: $opens)" \
  test "$opens" -le 4
check "the local time zone is not read (the logs' times are UTC)" \
  test "$(count main '/etc/localtime')" = 0
nstubs=$(count main '^openat([0-9]*, "[a-z-]*\.so", O_RDONLY|O_NOCTTY|O_NOFOLLOW')
preads=$(count main "^pread64(.*, 2048, 0)")
check "one read of each stub's and implementation's head ($preads for $nstubs files)" \
  test "$preads" -le "$nstubs"
check "no ping before the listing (the server asked no roots last time)" \
  test "$(count main "$PING")" = 0
check "the completion names, unchanged, are not written again" \
  test "$(count main '^renameat(')" = 0
sig=$(count child '^rt_sigaction(')
check "the server's child sets a handful of signals, not all ($sig)" \
  test "$sig" -le 4
gsig=$(count start '^rt_sigaction(')
check "the guardian's start sets its six ignored signals and no more ($gsig)" \
  test "$gsig" -le 8
gcalls=$(grep -cv '^\(setsid\|prctl\|rt_sigprocmask\|clock_gettime\|poll\|read\|fork\|kill\|munmap\|exit_group\)(' "$TMP/guard")
check "the guardian makes only its loop's calls ($gcalls others)" \
  test "$gcalls" = 0
# Past its time sharing mcphost's memory (strace slows the run), the one
# it forked with memory of its own: its loop's calls too.
OWN=$(grep -E "^$GUARD +(fork\(|<\.\.\. fork resumed>).* = [0-9]+\$" "$TMP/trace" |
  head -1 | sed 's/.* = //')
if [ -n "$OWN" ]; then
  of "$OWN" >"$TMP/own"
  ocalls=$(grep -cv '^\(prctl\|read\|kill\|exit_group\)(' "$TMP/own")
  check "  the guardian it forked too ($ocalls others)" test "$ocalls" = 0
fi
check "one waitid for the server's exit" test "$(count main '^waitid(')" = 1
check "stdout asked at most twice whether it is a terminal" \
  test "$(count main 'TCGETS')" -le 2
check "the --mcp-config file read once" \
  test "$(count main "^openat(AT_FDCWD, \"$C\"")" = 1

# The checks' steps (a component of a trusted directory: its stat) are
# the machine's depth, and the allocator's mappings the build's (ASan's
# pools): the rest is the command's. 291 here when this was written; 353
# when a step was three calls (an open, the close of the one before, an
# fstat); 600 before the changes these checks describe.
# A sanitizer's own start (its maps read, its handlers set) is not
# counted: the bound holds for a plain build.
if ldd "$MCPHOST" 2>/dev/null | grep -q 'libasan\|libtsan\|libmsan'; then
  echo "(a sanitizer's build: the tree's total is not bound)"
  finish
  exit
fi
steps=$(grep -c '^statx(AT_FDCWD, "/' "$TMP/main")
total=$(grep -vc ' \(mmap\|munmap\|mremap\|madvise\|mprotect\|brk\)(' "$TMP/calls")
rest=$((total - steps))
check "the tree makes at most 300 system calls besides the checks' steps and the allocator's ($rest; $total in all)" \
  test "$rest" -le 300
finish
