#!/usr/bin/env bash
# docs/man/mcphost.1 renders without a warning, and keeps up with the
# program: every command `mcphost --help` lists has its own subsection,
# with the subcommands and options its `--help` prints; every global and
# plugin option is under OPTIONS; every environment variable the source
# reads is under ENVIRONMENT; every exit code the CLI uses is under EXIT
# STATUS. So a command, option, variable or exit code added without a man
# entry fails here. The checker is also run on a copy of the page with one
# command taken out, which it must refuse (a check that cannot fail is no
# check).
. "$(dirname "$0")/../lib/lib.sh"
PAGE="$SRCDIR/docs/man/mcphost.1"
command -v python3 >/dev/null || skip_test "no python3 to read the page"
command -v man >/dev/null || skip_test "no man (Debian: man-db)"
command -v groff >/dev/null || skip_test "no groff (Debian: groff-base)"

# ---- rendering ----
MANROFFSEQ='' MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$PAGE" \
  >"$TMP/out" 2>"$TMP/err"
RC=$?
if [ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ] && grep -q '^NAME' "$TMP/out"; then
  ok "man --warnings -l renders the page without a warning"
else
  bad "man --warnings -l renders the page without a warning"
fi
groff -man -ww -z "$PAGE" >"$TMP/out" 2>"$TMP/err"
RC=$?
if [ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ]; then
  ok "groff -man -ww finds nothing to warn about"
else
  bad "groff -man -ww finds nothing to warn about"
fi

# ---- what the program says about itself ----
H="$TMP/help"
mkdir -p "$H"
"$MCPHOST" --help >"$H/global" 2>&1
RC=$?
[ "$RC" -eq 0 ] || bad "mcphost --help exits 0"
# The command words: the first word of each entry of "Commands:" and
# "Plugin commands:".
cmds=$(awk '/^Commands:/ {s = 1; next} /^Plugin commands:/ {s = 1; next}
            /^[A-Z][a-z ]*:$/ {s = 0}
            s && /^  [a-z]/ {print $1}' "$H/global" | sort -u)
[ -n "$cmds" ] || bad "mcphost --help lists commands"
for c in $cmds; do
  "$MCPHOST" "$c" --help >"$H/cmd.$c" 2>&1
done

# Every built-in command's --help is its own, not the global usage.
for c in $(awk '/^Commands:/ {s = 1; next} /^[A-Z][a-z ]*:$/ {s = 0}
                s && /^  [a-z]/ {print $1}' "$H/global" | sort -u); do
  if head -1 "$H/cmd.$c" | grep -Eq "^usage: mcphost (\[OPTIONS\] )?$c( |$)"; then
    ok "mcphost $c --help is $c's own"
  else
    RC=1
    cp "$H/cmd.$c" "$TMP/out"
    bad "mcphost $c --help is $c's own"
  fi
done

# checker PAGE: the checker on PAGE (run_cmd: RC, OUT, ERR).
checker() { run_cmd python3 "$TMP/check.py" "$1" "$H" "$SRCDIR"; }

# ---- the page against all of it ----
cat >"$TMP/check.py" <<'PY'
import os, re, signal, sys

page_path, helpdir, src = sys.argv[1], sys.argv[2], sys.argv[3]

def plain(line):
    """A roff line as text: macros, fonts and escapes gone."""
    line = re.sub(r'^\.(SS|SH|TP|B|I|BR|RB|BI|IB|IR|RI|IP|PP|RS|RE)\b ?',
                  '', line)
    line = re.sub(r'\\f[BIRP]', '', line)
    for a, b in (('\\-', '-'), ('\\(aq', "'"), ('\\(dq', '"'),
                 ('\\ ', ' '), ('\\e', '\\'), ('\\&', '')):
        line = line.replace(a, b)
    return line.replace('"', ' ')

def read_page(path):
    """{SH name: text}, [(SS heading, text)] of COMMANDS, exit tags."""
    sh, ss, exits = {}, [], []
    cur_sh, cur_ss, after_tp = None, None, False
    for raw in open(path, encoding='utf-8').read().split('\n'):
        if raw.startswith('.\\"'):
            continue
        if raw.startswith('.SH'):
            cur_sh = plain(raw).strip()
            sh[cur_sh] = ''
            cur_ss = None
            continue
        text = plain(raw)
        if cur_sh is None:
            continue
        sh[cur_sh] += text + '\n'
        if raw.startswith('.SS') and cur_sh == 'COMMANDS':
            cur_ss = [text.strip(), '']
            ss.append(cur_ss)
        elif cur_ss is not None:
            cur_ss[1] += text + '\n'
        if cur_sh == 'EXIT STATUS' and after_tp:
            exits.append(text.strip())
        after_tp = raw.startswith('.TP')
    return sh, ss, exits

def word(tok, text):
    return re.search(r'(?<![\w-])' + re.escape(tok) + r'(?![\w-])', text)

def opts(text):
    longs = set(re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]*)', text))
    shorts = set(re.findall(r'(?<![\w-])(-[a-zA-Z])(?![\w-])', text))
    return (longs | shorts) - {'--help', '-h'}

def section(text, start):
    """The lines of a --help section starting at `start:`."""
    out, on = [], False
    for l in text.split('\n'):
        if l.startswith(start):
            on = True
            continue
        if on and re.match(r'^[A-Z][A-Za-z ]*:$', l):
            break
        if on:
            out.append(l)
    return '\n'.join(out)

def source_env():
    names = set()
    pat = re.compile(r'\b[A-Za-z_]*(?:env|xdg_dir)[A-Za-z_]*\('
                     r'"([A-Za-z_][A-Za-z0-9_]*)"')
    for top in ('host', 'cli', 'gateway', 'common', 'transports', 'plugins'):
        for d, _, files in os.walk(os.path.join(src, top)):
            for f in files:
                if f.endswith(('.c', '.h')):
                    t = open(os.path.join(d, f), encoding='utf-8',
                             errors='replace').read()
                    names.update(pat.findall(t))
                    # A prefix built at run time: MCPHOST_OPTION_<NAME>.
                    if '"MCPHOST_OPTION_"' in t:
                        names.add('MCPHOST_OPTION_')
    return names

def source_exits():
    codes = set()
    cli = os.path.join(src, 'cli')
    for f in os.listdir(cli):
        if not f.endswith(('.c', '.h')):
            continue
        t = open(os.path.join(cli, f), encoding='utf-8').read()
        codes.update(re.findall(r'\bEXIT_[A-Z_]+ = (\d+)', t))
        for sig in re.findall(r'128 \+ (SIG[A-Z]+)', t):
            codes.add(str(128 + getattr(signal, sig)))
    return codes

def check(path):
    problems = []
    sh, ss, exit_tags = read_page(path)
    for name in ('NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'COMMANDS',
                 'CONFIGURATION', 'ENVIRONMENT', 'FILES', 'EXIT STATUS',
                 'EXAMPLES', 'SEE ALSO'):
        if name not in sh:
            problems.append('no section ' + name)
    glob = open(os.path.join(helpdir, 'global')).read()
    options_text = sh.get('OPTIONS', '')
    global_opts = opts(section(glob, 'Options:')) | \
        opts(section(glob, 'Plugin options:'))
    for o in sorted(global_opts):
        if not word(o, options_text):
            problems.append('global option %s not under OPTIONS' % o)
    # Commands: a subsection each, with its subcommands and options.
    cmd_lines = {}
    for l in (section(glob, 'Commands:') + '\n' +
              section(glob, 'Plugin commands:')).split('\n'):
        m = re.match(r'^  ([a-z][\w-]*)(.*)', l)
        if m:
            cmd_lines.setdefault(m.group(1), []).append(l.strip())
    for c in sorted(cmd_lines):
        own = [t for h, t in ss if h.split()[0] == c]
        heads = [h for h, t in ss if h.split()[0] == c]
        if not own:
            problems.append('command %s has no subsection under COMMANDS' % c)
            continue
        body = '\n'.join(heads) + '\n' + '\n'.join(own)
        helptext = open(os.path.join(helpdir, 'cmd.' + c)).read()
        if helptext.startswith('usage: mcphost [OPTIONS] COMMAND'):
            helptext = ''  # the global usage: covered above
        # The synopsis lines: the global list's left column, the usage
        # lines of the command's own help.
        usage = '\n'.join(re.split(r'\s{2,}', l)[0] for l in cmd_lines[c])
        usage += '\n' + '\n'.join(
            l for l in helptext.split('\n')
            if re.match(r'^(usage:|\s+mcphost |\s{10,}\[)', l))
        subs = set()
        for m in re.finditer(r'(?:^|\s)' + re.escape(c) +
                             r' ([a-z][a-z-]*(?:\|[a-z][a-z-]*)*)', usage):
            subs.update(m.group(1).split('|'))
        for m in re.finditer(r'\| ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?',
                             usage):
            subs.add(m.group(2) if m.group(1) == c and m.group(2)
                     else m.group(1))
        for m in re.finditer(r'(?m)^  ([a-z][a-z-]+)\b', helptext):
            subs.add(m.group(1))
        for s in sorted(subs):
            if not word(s, body):
                problems.append('command %s: %s not in its subsection'
                                % (c, s))
        for o in sorted(opts(usage + '\n' + helptext) - global_opts - {'--'}):
            if not word(o, body):
                problems.append('command %s: option %s not in its subsection'
                                % (c, o))
    env_text = sh.get('ENVIRONMENT', '')
    env = source_env() | set(re.findall(r'(?m)^  ([A-Z][A-Z0-9_]+)',
                                        section(glob, 'Environment:')))
    for v in sorted(env):
        found = (re.search(r'(?<![\w])' + v, env_text) if v.endswith('_')
                 else word(v, env_text))
        if not found:
            problems.append('environment variable %s not under ENVIRONMENT'
                            % v)
    codes = source_exits() | set(re.findall(r'(?m)^  (\d+) ',
                                            section(glob, 'Exit codes:')))
    tagged = set()
    for t in exit_tags:  # "N", or a range "N to M"
        m = re.match(r'^(\d+)(?: to (\d+))?$', t)
        if m:
            last = int(m.group(2) or m.group(1))
            tagged.update(str(n) for n in range(int(m.group(1)), last + 1))
    for code in sorted(codes, key=int):
        if code not in tagged:
            problems.append('exit code %s not under EXIT STATUS' % code)
    return problems, len(cmd_lines), len(env), len(codes)

problems, ncmd, nenv, ncodes = check(page_path)
if os.environ.get('SHOW_COUNTS'):
    print('counts: %d commands, %d variables, %d exit codes'
          % (ncmd, nenv, ncodes))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY

checker "$PAGE"
if [ "$RC" -eq 0 ]; then
  ok "the page has every command, subcommand, option, variable and exit code"
else
  bad "the page has every command, subcommand, option, variable and exit code"
fi
SHOW_COUNTS=1 python3 "$TMP/check.py" "$PAGE" "$H" "$SRCDIR" >"$TMP/out" 2>&1
RC=$?
counts=$(sed -n 's/^counts: //p' "$TMP/out")
read -r ncmd _ nenv _ ncodes _ <<<"$(echo "$counts" | tr -d ',')"
if [ "${ncmd:-0}" -gt 20 ] && [ "${nenv:-0}" -gt 40 ] && [ "${ncodes:-0}" -gt 12 ]; then
  ok "the check saw ${ncmd} commands, ${nenv} variables, ${ncodes} exit codes"
else
  bad "the check saw enough commands, variables and exit codes" "$counts"
fi

# ---- the checker refuses a page that lacks something ----
# one command's subsection taken out
awk '/^\.SS "ping / {skip = 1; next} /^\.S[SH] / {skip = 0} !skip' \
  "$PAGE" >"$TMP/no_ping.1"
checker "$TMP/no_ping.1"
expect "a page without the ping command is refused, naming it" 1 \
  --out "command ping has no subsection under COMMANDS"
# one variable, one option and one exit code taken out
sed -e '/^\.B MCPHOST_STILL_RUNNING_MS$/d' -e '/^\.B \\-\\-no\\-roots$/d' \
  -e '/^\.B 141$/d' "$PAGE" >"$TMP/less.1"
checker "$TMP/less.1"
expect "a page without a variable, an option or an exit code is refused" 1 \
  --out "environment variable MCPHOST_STILL_RUNNING_MS not under ENVIRONMENT" \
  --out "global option --no-roots not under OPTIONS" \
  --out "exit code 141 not under EXIT STATUS"
# a subcommand's option taken out
sed -e 's/\[\\-\\-count N\] \[\\-\\-json\]"$/[\\-\\-json]"/' \
  -e '/^\.B \\-\\-count$/d' "$PAGE" >"$TMP/nocount.1"
checker "$TMP/nocount.1"
expect "a page without channels listen's --count is refused" 1 \
  --out "command channels: option --count not in its subsection"

finish
