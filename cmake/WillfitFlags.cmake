# Warnings and sanitizers as INTERFACE targets: a target opts in by linking them,
# so nothing leaks into third-party code or becomes a global flag.
add_library(willfit_warnings INTERFACE)
target_compile_options(willfit_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  $<$<BOOL:${WILLFIT_WARNINGS_AS_ERRORS}>:-Werror>)

# willfit_sanitizers: what every willfit target links. ASan + UBSan under
# WILLFIT_SANITIZE; under WILLFIT_FUZZ the sanitizers of WILLFIT_FUZZ_SANITIZERS
# (ASan + UBSan unless tests/fuzz/run.sh's deep mode asks for UBSan alone) and
# libFuzzer's coverage instrumentation (fuzzer-no-link: the code under test
# gets no main()).
set(WILLFIT_FUZZ_SANITIZERS "address,undefined" CACHE STRING
  "Sanitizers of the WILLFIT_FUZZ build (comma-separated, as -fsanitize= takes them)")
set(willfit_sanitizer_list "address,undefined")
if(WILLFIT_FUZZ)
  set(willfit_sanitizer_list "${WILLFIT_FUZZ_SANITIZERS}")
endif()
add_library(willfit_sanitizers INTERFACE)
if(WILLFIT_SANITIZE OR WILLFIT_FUZZ)
  target_compile_options(willfit_sanitizers INTERFACE
    -fsanitize=${willfit_sanitizer_list} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(willfit_sanitizers INTERFACE -fsanitize=${willfit_sanitizer_list})
  # GCC 12 with ASan at -O1 and above warns "may be used uninitialized" inside
  # std::optional's destructor of a returned temporary (app/sources/detect.cpp): the
  # instrumentation hides the initialisation from the flow analysis. GCC's
  # manual says sanitizers can make this warning give false positives.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(willfit_sanitizers INTERFACE -Wno-maybe-uninitialized)
  endif()
endif()

# willfit_fuzzer: linked only by the fuzz executables (tests/fuzz), which get
# libFuzzer's main() from it.
add_library(willfit_fuzzer INTERFACE)
if(WILLFIT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WILLFIT_FUZZ needs clang (libFuzzer): configure with CXX=clang++")
  endif()
  target_compile_options(willfit_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
  # The edit distances behind "did you mean" are left out of the coverage
  # instrumentation (tests/fuzz/coverage-ignorelist.txt says why).
  target_compile_options(willfit_sanitizers INTERFACE
    -fsanitize-coverage-ignorelist=${CMAKE_SOURCE_DIR}/tests/fuzz/coverage-ignorelist.txt)
  target_compile_options(willfit_fuzzer INTERFACE -fsanitize=fuzzer,${willfit_sanitizer_list})
  target_link_options(willfit_fuzzer INTERFACE -fsanitize=fuzzer,${willfit_sanitizer_list})
endif()
