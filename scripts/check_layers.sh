#!/usr/bin/env bash
# check_layers.sh SRCDIR [BUILDDIR]: holds the host's layers to
# host/layers.txt. A folder may use itself and the folders its line names,
# nothing else:
#   - by #include "...": each "..." include of a .c or .h file is found as
#     the compiler finds it (next to the file, then host/, common/, the
#     source root) and the folder of the header found must be allowed;
#     front ends are left to tests/integration/test_cli_headers.sh (the
#     library's headers none: <mcphost/client.h> only);
#   - by symbols (with BUILDDIR): each undefined symbol of an object file
#     of the build, when an object of another folder defines it, must be
#     defined in an allowed folder (what a static inline function or a
#     macro carries is caught by the include).
# Prints one line per edge not allowed, naming the file, the edge and the
# header or symbol, and exits 1; exits 0 when there is none, 2 when the
# rule file is wrong.
set -u
src=${1:?usage: check_layers.sh SRCDIR [BUILDDIR]}
build=${2:-}
src=$(cd "$src" && pwd) || exit 2
rules="$src/host/layers.txt"
[ -f "$rules" ] || { echo "check_layers: $rules: missing" >&2; exit 2; }

declare -A allowed front
folders=()
lineno=0
while IFS= read -r line; do
  lineno=$((lineno + 1))
  line=${line%%#*}
  [ -n "${line//[[:space:]]/}" ] || continue
  isfront=0
  case $line in front\ *) isfront=1; line=${line#front } ;; esac
  case $line in *:*) ;; *)
    echo "check_layers: host/layers.txt:$lineno: no ':' in \"$line\"" >&2
    exit 2 ;;
  esac
  name=$(echo "${line%%:*}" | tr -d '[:space:]')
  folders+=("$name")
  allowed[$name]=" $(echo ${line#*:}) "
  front[$name]=$isfront
done <"$rules"
for f in "${folders[@]}"; do
  for use in ${allowed[$f]}; do
    [ -n "${front[$use]+x}" ] || {
      echo "check_layers: host/layers.txt: $f may use \"$use\", which has" \
        "no line of its own" >&2
      exit 2
    }
  done
done

# folder_of PATH (from the source root): in FOLDER, the longest folder of
# the rule file PATH lies in, or "". (Variables, not output: no subshell
# for each of some thousand paths.)
folder_of() {
  local f
  FOLDER=""
  for f in "${folders[@]}"; do
    case $1 in "$f"/*)
      [ ${#f} -gt ${#FOLDER} ] && FOLDER=$f ;;
    esac
  done
}

# norm PATH: in NORM, PATH without its "." and "DIR/.." components.
norm() {
  local IFS=/ part out=()
  for part in $1; do
    case $part in
    "" | .) ;;
    ..) [ ${#out[@]} -gt 0 ] && out=("${out[@]:0:${#out[@]}-1}") ;;
    *) out+=("$part") ;;
    esac
  done
  NORM="${out[*]}"
}

# uses FOLDER: " a b" (the folders FOLDER may use), or " nothing".
uses() {
  local u
  u=$(echo ${allowed[$1]})
  printf ' %s' "${u:-nothing}"
}

# may FROM TO: whether folder FROM may use folder TO.
may() { [ "$1" = "$2" ] || [[ ${allowed[$1]} == *" $2 "* ]]; }

bad=0
# Every folder of host/ holding sources has a line (a new one is not left
# out of the check by accident).
for d in "$src"/host/*/; do
  d=${d%/}
  d=${d#"$src"/}
  ls "$src/$d"/*.[ch] >/dev/null 2>&1 || continue
  if [ -z "${front[$d]+x}" ]; then
    echo "$d: a folder with no line in host/layers.txt"
    bad=1
  fi
done

# ---- includes ----
for f in "${folders[@]}"; do
  [ "${front[$f]}" = 0 ] && [ -d "$src/$f" ] || continue
  for file in "$src/$f"/*.[ch]; do
    [ -f "$file" ] || continue
    rel=${file#"$src"/}
    folder_of "$rel"
    [ "$FOLDER" = "$f" ] || continue
    while IFS=: read -r n inc; do
      found=""
      for base in "${rel%/*}" host common .; do
        if [ -f "$src/$base/$inc" ]; then
          norm "$base/$inc"
          found=$NORM
          break
        fi
      done
      [ -n "$found" ] || continue # a generated or system header
      folder_of "$found"
      to=$FOLDER
      [ -n "$to" ] || continue
      if ! may "$f" "$to"; then
        echo "$rel:$n: $f -> $to: #include \"$inc\" ($found); $f may" \
          "use only:$(uses "$f")"
        bad=1
      fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
      sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
  done
done

# ---- symbols ----
if [ -n "$build" ]; then
  build=$(cd "$build" && pwd) || exit 2
  map=$(mktemp)
  trap 'rm -f "$map"' EXIT
  # Each object of a target outside tests/, bench/ and examples/ whose
  # source still exists (an object left by a moved file is not the tree's)
  # and lies in a folder of the rule file: "OBJECT FOLDER SOURCE".
  while IFS= read -r obj; do
    rel=${obj#"$build"/}
    case $rel in
    CMakeFiles/*) sub="" ;;
    *) sub=${rel%%/CMakeFiles/*}/ ;;
    esac
    case $sub in tests/* | bench/* | examples/*) continue ;; esac
    rest=${rel#*CMakeFiles/*.dir/}
    rest=${rest%.o}
    # CMake writes a source outside the target's folder with ".." as "__".
    rest=/$rest
    rest=${rest//\/__\//\/..\/}
    norm "$sub$rest"
    source=$NORM
    [ -f "$src/$source" ] || continue
    folder_of "$source"
    [ -n "$FOLDER" ] || continue
    printf '%s %s %s\n' "$obj" "$FOLDER" "$source"
  done < <(find "$build" -name '*.c.o' -path '*/CMakeFiles/*.dir/*' |
    sort) >"$map"
  if [ ! -s "$map" ]; then
    echo "check_layers: no object files of the host under $build" >&2
    exit 2
  fi
  pairs=""
  for f in "${folders[@]}"; do
    for use in ${allowed[$f]}; do pairs="$pairs $f>$use"; done
  done
  # nm -P -A: "OBJECT: SYMBOL TYPE [VALUE SIZE]"; U is undefined, an upper
  # case letter else a global definition.
  out=$(cut -d' ' -f1 "$map" | xargs nm -P -A 2>/dev/null |
    awk -v pairs="$pairs" -v src="$src/" '
      FILENAME == ARGV[1] { folder[$1] = $2; source[$1] = $3; next }
      {
        obj = $1; sub(/:$/, "", obj)
        if (!(obj in folder)) next
        if ($3 == "U") { use[++n] = obj SUBSEP $2; next }
        if ($3 ~ /^[A-TV-Z]$/ && !(($2) in def)) {
          def[$2] = folder[obj]; defsrc[$2] = source[obj]
        }
      }
      END {
        np = split(pairs, p, " ")
        for (i = 1; i <= np; i++) {
          ok[p[i]] = 1
          split(p[i], e, ">")
          may[e[1]] = may[e[1]] " " e[2]
        }
        for (i = 1; i <= n; i++) {
          split(use[i], u, SUBSEP)
          from = folder[u[1]]; sym = u[2]
          if (!(sym in def)) continue
          to = def[sym]
          if (to == from || ((from ">" to) in ok)) continue
          printf "%s: %s -> %s: uses %s (defined in %s); %s may use only:%s\n",
            source[u[1]], from, to, sym, defsrc[sym], from,
            (from in may ? may[from] : " nothing")
        }
      }' "$map" -)
  if [ -n "$out" ]; then
    printf '%s\n' "$out" | sort -u
    bad=1
  fi
fi
exit $bad
