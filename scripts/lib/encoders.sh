# Shared by scripts/conformance-results.sh and scripts/generated-results.sh (sourced, not run):
# the build, the npm encoders, the Debian-packaged Go, Perl, Ruby and Qt encoders, the table of
# encoders, conformance/adapters/encoders.txt, and what each encoder declares unsupported,
# conformance/adapters/declared/.

# build_encoders ROOT BUILD: configures BUILD if it has no cache and builds the CLI and the
# reference batch encoder in it (nothing else).
build_encoders() {
  local root=$1 build=$2
  if [ ! -f "$build/CMakeCache.txt" ]; then
    (cd "$root" && cmake --preset plain -B "$build" >/dev/null)
  fi
  cmake --build "$build" --target sinkcheck_cli sinkcheck-encoder >/dev/null
}

# install_node_encoders ROOT BUILD: the npm encoders at the versions
# conformance/adapters/node/package-lock.json pins, in BUILD/node-encoders (node_modules never
# in the source tree; `npm ci` needs the npm registry). --ignore-scripts: the packages' install
# scripts only build optional native decoders (cbor-extract, msgpackr-extract), which no
# encoder uses. Prints the directory.
install_node_encoders() {
  local root=$1 build=$2 dir
  dir=$(build_subdirectory "$root" "$build" node-encoders)
  cp "$root"/conformance/adapters/node/package.json "$root"/conformance/adapters/node/package-lock.json \
    "$root"/conformance/adapters/node/*.js "$dir/"
  npm ci --prefix "$dir" --ignore-scripts --no-audit --no-fund --loglevel=error >&2
  echo "$dir"
}

# The Debian packages of the Go, Perl, Ruby and Qt encoders (conformance/adapters/{go,perl,ruby,qt}/).
# Only the results scripts install them: they are not part of scripts/setup.sh, so CI does not
# grow; the CTests conform_adapter_go_*, _perl_*, _ruby_* and _qt_* skip when they are missing.
debian_encoder_packages=(golang-go golang-github-fxamacker-cbor-dev golang-github-ugorji-go-codec-dev
  libcbor-xs-perl libdata-messagepack-perl ruby ruby-msgpack qtbase5-dev pkg-config g++)

# install_debian_encoders ROOT BUILD: installs what debian_encoder_packages lacks (apt-get,
# with sudo unless root; nothing when all are there) and builds the Go adapter against the
# packaged sources into BUILD/go-encoders/go_encoder (GOPATH mode: nothing is downloaded) and
# the Qt adapter into BUILD/qt-encoders/qt_cbor_encoder.
install_debian_encoders() {
  local root=$1 build=$2 missing=() p sudo_cmd=()
  for p in "${debian_encoder_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2
  fi
  build_go_encoder "$root" "$build"
  build_qt_encoder "$root" "$build"
}

# build_subdirectory ROOT BUILD NAME: makes BUILD/NAME (BUILD relative to ROOT unless absolute)
# and prints its absolute path.
build_subdirectory() {
  local dir
  case $2 in
    /*) dir="$2/$3" ;;
    *) dir="$1/$2/$3" ;;
  esac
  mkdir -p "$dir"
  echo "$dir"
}

# build_go_encoder ROOT BUILD: BUILD/go-encoders/go_encoder from conformance/adapters/go/.
build_go_encoder() {
  local root=$1 build=$2 dir
  dir=$(build_subdirectory "$root" "$build" go-encoders)
  (cd "$root" && GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOCACHE="$dir/cache" \
    go build -o "$dir/go_encoder" ./conformance/adapters/go)
}

# build_qt_encoder ROOT BUILD: BUILD/qt-encoders/qt_cbor_encoder from conformance/adapters/qt/,
# with g++ and Qt5Core's pkg-config flags (-fPIC: Qt 5 is built with -reduce-relocations and
# refuses code that is not position independent). Rebuilt only when a source is newer.
build_qt_encoder() {
  local root=$1 build=$2 dir source=$1/conformance/adapters/qt/qt_cbor_encoder.cpp
  dir=$(build_subdirectory "$root" "$build" qt-encoders)
  local file stale=false
  for file in "$root"/conformance/adapters/qt/*.cpp "$root"/conformance/adapters/qt/*.hpp; do
    [ "$dir/qt_cbor_encoder" -nt "$file" ] || stale=true
  done
  $stale || return 0
  # shellcheck disable=SC2046 # pkg-config's flags are words
  g++ -std=c++17 -O2 -Wall -Wextra -Werror -fPIC "$source" $(pkg-config --cflags --libs Qt5Core) \
    -o "$dir/qt_cbor_encoder.new"
  mv "$dir/qt_cbor_encoder.new" "$dir/qt_cbor_encoder"
}

# mode_options MODE ENCODER: sets the array mode_option to the conform options of the table's
# mode field (`batch`, `per-vector`, or either with `+json` for --notation json); none for a
# linked encoder.
mode_options() {
  mode_option=()
  case $2 in linked:*) return ;; esac
  mode_option=(--mode "${1%+json}")
  case $1 in *+json) mode_option+=(--notation json) ;; esac
}

# declared_unsupported ROOT PYTHON NAME FORMAT DIR: what encoder NAME declares unsupported in
# FORMAT (conformance/adapters/declared/NAME.txt, read by scripts/lib/encoders_table.py, which
# stops with FILE:LINE on a malformed entry): sets the array declared_list_option to
# `--expected-failures DIR/NAME.FORMAT.expected` for the corpus vectors it lists (none without
# any) and declared_budget to the budget of generated values (`--max-unsupported`, 0 without one).
declared_unsupported() {
  local root=$1 python=$2 name=$3 format=$4 dir=$5 answer list
  answer=$(PYTHONPATH="$root/scripts/lib" "$python" "$root/scripts/lib/encoders_table.py" declared \
    "$root/conformance/adapters/encoders.txt" "$name" "$format" "$dir") || return 2
  list=${answer%%$'\n'*}
  # shellcheck disable=SC2034 # read by the scripts that source this file
  declared_budget=${answer#*$'\n'}
  # shellcheck disable=SC2034
  if [ -n "$list" ]; then
    declared_list_option=(--expected-failures "$list")
  else
    declared_list_option=()
  fi
}

# read_encoders ROOT BUILD PYTHON NODE_DIR: fills the array `runs` with one
# "name|formats|level|encoder|mode" line per row of the table, the encoder's placeholders
# replaced.
read_encoders() {
  local root=$1 build=$2 python=$3 node_dir=$4 line name formats level encoder mode rest number=0 bars
  local table="$root/conformance/adapters/encoders.txt"
  runs=()
  while IFS= read -r line; do
    number=$((number + 1))
    case $line in '#'* | '') continue ;; esac
    bars=${line//[^|]/}
    if [ ${#bars} -ne 6 ]; then
      echo "$table:$number: $((${#bars} + 1)) fields, expected 7" \
        "(name | formats | level | encoder | mode | title | how)" >&2
      return 2
    fi
    IFS='|' read -r name formats level encoder mode rest <<<"$line"
    encoder=${encoder//\{build\}/$build}
    encoder=${encoder//\{python\}/$python}
    encoder=${encoder//\{root\}/$root}
    encoder=${encoder//\{node\}//usr/bin/node $node_dir/node_encoder.js --library}
    encoder=${encoder//\{go\}/$build/go-encoders/go_encoder --library}
    encoder=${encoder//\{perl\}//usr/bin/perl}
    encoder=${encoder//\{ruby\}//usr/bin/ruby}
    encoder=${encoder//\{qt\}/$build/qt-encoders/qt_cbor_encoder}
    runs+=("$name|$formats|$level|$encoder|$mode")
  done <"$table"
}
