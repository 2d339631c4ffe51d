# Shared by scripts/conformance-results.sh and scripts/generated-results.sh (sourced, not run):
# the build, the npm encoders and the table of encoders, conformance/adapters/encoders.txt.

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
  case $build in
    /*) dir="$build/node-encoders" ;;
    *) dir="$root/$build/node-encoders" ;;
  esac
  mkdir -p "$dir"
  cp "$root"/conformance/adapters/node/package.json "$root"/conformance/adapters/node/package-lock.json \
    "$root"/conformance/adapters/node/*.js "$dir/"
  npm ci --prefix "$dir" --ignore-scripts --no-audit --no-fund --loglevel=error >&2
  echo "$dir"
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
    runs+=("$name|$formats|$level|$encoder|$mode")
  done <"$table"
}
