# output_tail(VAR N): keeps the last N characters of ${VAR}, for failure messages that show
# the end of a fuzzer's output (where libFuzzer and sinkcheck print what they found).
function(output_tail var n)
  string(LENGTH "${${var}}" length)
  if(length GREATER n)
    math(EXPR from "${length} - ${n}")
    string(SUBSTRING "${${var}}" ${from} ${n} tail)
    set(${var} "${tail}" PARENT_SCOPE)
  endif()
endfunction()
