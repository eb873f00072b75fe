#!/usr/bin/env bash
# journals.sh save|restore ROOT NAME: keep a measurement's run directory
# ROOT/NAME in data/journals between sittings, as numbered parts.
#
#   save:    writes data/journals/NAME-K.tar.xz (K = the next part): the run
#            directory with each journal holding only the complete lines
#            that no earlier part holds, and the other files that no
#            earlier part holds as they are, but for each stream's
#            games.pgn and positions.jsonl: `tamerlane measure` and
#            `selfplay` write them again from the journals when they
#            resume, and `tamerlane values` reads the journals.
#   restore: rebuilds ROOT/NAME from every part, in order (journals
#            appended, other files from the newest part); refuses to write
#            over an existing ROOT/NAME.
#
# Pause or stop the measurement first (kill -STOP), or a part may miss the
# line being written; a torn last line is never archived.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { echo "usage: $0 save|restore ROOT NAME" >&2; exit 2; }
cmd=$1 root=$2 name=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
parts=$(ls "$here/$name"-*.tar.xz 2>/dev/null | sed 's/.*-\([0-9]*\)\.tar\.xz$/\1 &/' | sort -n | cut -d' ' -f2- || true)

# rebuild DEST from every part
rebuild() {
	local dest=$1 p f rel
	mkdir -p "$dest"
	for p in $parts; do
		rm -rf "$tmp/part" && mkdir "$tmp/part"
		tar -C "$tmp/part" -xJf "$p"
		(cd "$tmp/part/$name" && find . -type f) | while read -r rel; do
			f="$tmp/part/$name/$rel"
			mkdir -p "$(dirname "$dest/$rel")"
			case "$rel" in
			*/journal.jsonl) cat "$f" >> "$dest/$rel" ;;
			*) cp "$f" "$dest/$rel" ;;
			esac
		done
	done
}

case $cmd in
save)
	[ -d "$root/$name" ] || { echo "$0: $root/$name: no such run directory" >&2; exit 1; }
	rebuild "$tmp/prev"
	mkdir -p "$tmp/new"
	cp -a "$root/$name" "$tmp/new/$name"
	find "$tmp/new/$name" \( -name .lock -o -name games.pgn -o -name positions.jsonl \) -delete
	added=$(python3 - "$tmp/new/$name" "$tmp/prev" <<'PY'
import os, sys
new, prev = sys.argv[1], sys.argv[2]
added = 0
for d, _, files in os.walk(new):
    for f in files:
        cur = os.path.join(d, f)
        old = os.path.join(prev, os.path.relpath(cur, new))
        data = open(cur, 'rb').read()
        if f == 'journal.jsonl':
            # complete lines only, then those no earlier part holds
            data = data[:data.rfind(b'\n') + 1]
            seen = set(open(old, 'rb').read().splitlines()) if os.path.exists(old) else set()
            lines = [l for l in data.splitlines() if l not in seen]
            added += len(lines)
            open(cur, 'wb').write(b''.join(l + b'\n' for l in lines))
        elif os.path.exists(old) and open(old, 'rb').read() == data:
            os.remove(cur)  # an earlier part holds it as it is
print(added)
PY
)
	k=$(( $(echo "$parts" | grep -c . || true) + 1 ))
	out="$here/$name-$k.tar.xz"
	tar -C "$tmp/new" -cf - "$name" | xz -6 -T2 > "$out.tmp" && mv "$out.tmp" "$out"
	echo "$out: $added new journal lines"
	;;
restore)
	[ -n "$parts" ] || { echo "$0: no parts $here/$name-*.tar.xz" >&2; exit 1; }
	[ ! -e "$root/$name" ] || { echo "$0: $root/$name exists; restore into an empty place" >&2; exit 1; }
	rebuild "$tmp/out"
	mkdir -p "$root" && mv "$tmp/out" "$root/$name"
	echo "$root/$name: restored from $(echo "$parts" | grep -c .) part(s)"
	;;
*) echo "usage: $0 save|restore ROOT NAME" >&2; exit 2 ;;
esac
