# fuzz-options.sh — sourced by fuzz-ci.sh and fuzz-campaign.sh: what a target's .options file
# asks of the sanitizers, in the OSS-Fuzz layout ([asan] and [ubsan] sections of key = value).

# sanitizer_options FILE SECTION: the section's settings as k=v:k=v (empty when there are none)
sanitizer_options() {
  [ -f "$1" ] || return 0
  awk -v want="[$2]" '
    /^\[/ { in_section = ($0 == want); next }
    in_section && /^[A-Za-z_]+ *=/ { gsub(/ /, ""); out = out (out == "" ? "" : ":") $0 }
    END { print out }' "$1"
}

# with_options_env FILE COMMAND...: runs COMMAND with the file's [asan] and [ubsan] settings
# ahead of ASAN_OPTIONS and UBSAN_OPTIONS, so that the caller's own environment still wins
with_options_env() {
  local file=$1 asan ubsan
  shift
  asan=$(sanitizer_options "$file" asan)
  ubsan=$(sanitizer_options "$file" ubsan)
  ASAN_OPTIONS="${asan:+$asan:}${ASAN_OPTIONS:-}" UBSAN_OPTIONS="${ubsan:+$ubsan:}${UBSAN_OPTIONS:-}" "$@"
}
