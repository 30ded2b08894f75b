# willfit_embed(<target> <symbol> <input-file>)
# Compiles <input-file> into <target> as `extern const char <symbol>[]` plus
# `extern const std::size_t <symbol>_size`, so the binary carries its databases
# and works from any directory. The generated source is rewritten only when the
# bytes change (see EmbedFile.cmake), so an unchanged database rebuilds nothing.
set(WILLFIT_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/EmbedFile.cmake")

function(willfit_embed target symbol input)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded/${symbol}.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out} -DSYMBOL=${symbol}
            -P "${WILLFIT_EMBED_SCRIPT}"
    DEPENDS "${input}" "${WILLFIT_EMBED_SCRIPT}"
    COMMENT "Embedding ${input} as ${symbol}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
