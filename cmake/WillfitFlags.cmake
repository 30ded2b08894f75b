# Warnings and sanitizers as INTERFACE targets: a target opts in by linking them,
# so nothing leaks into third-party code or becomes a global flag.
add_library(willfit_warnings INTERFACE)
target_compile_options(willfit_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  $<$<BOOL:${WILLFIT_WARNINGS_AS_ERRORS}>:-Werror>)

add_library(willfit_sanitizers INTERFACE)
if(WILLFIT_SANITIZE)
  target_compile_options(willfit_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(willfit_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
