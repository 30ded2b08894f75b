# CTest script: installs the build into a fresh temporary prefix and runs the
# installed binary, then checks that the man page, the three completion
# scripts and the JSON Schemas landed where the system looks for them.
# Called with -DBUILD_DIR=<build folder> -DPREFIX=<temporary prefix>.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}")
endif()

include(GNUInstallDirs)
foreach(f
    bin/willfit
    ${CMAKE_INSTALL_MANDIR}/man1/willfit.1
    ${CMAKE_INSTALL_DATADIR}/bash-completion/completions/willfit
    ${CMAKE_INSTALL_DATADIR}/zsh/site-functions/_willfit
    ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d/willfit.fish
    ${CMAKE_INSTALL_DATADIR}/willfit/schema/fit.schema.json
    ${CMAKE_INSTALL_DATADIR}/willfit/schema/grid.schema.json
    ${CMAKE_INSTALL_DATADIR}/willfit/schema/train.schema.json)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${PREFIX}/${f}")
  endif()
endforeach()

# The installed binary answers on its own (databases embedded), from another
# folder: a 7b model at Q4_K_M fits 8 GiB (exit 0; at fp16 it would not).
execute_process(COMMAND "${PREFIX}/bin/willfit" 7b -p q4 -d 8gb
                WORKING_DIRECTORY "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "7b|7 B")
  message(FATAL_ERROR "installed willfit 7b -p q4 -d 8gb: exit ${rc}\n${out}${err}")
endif()
# What it prints for bash is the file installed for bash.
execute_process(COMMAND "${PREFIX}/bin/willfit" completions bash
                RESULT_VARIABLE rc OUTPUT_VARIABLE printed)
file(READ "${PREFIX}/${CMAKE_INSTALL_DATADIR}/bash-completion/completions/willfit" installed)
if(NOT rc EQUAL 0 OR NOT printed STREQUAL installed)
  message(FATAL_ERROR "willfit completions bash differs from the installed script")
endif()
file(READ "${PREFIX}/${CMAKE_INSTALL_MANDIR}/man1/willfit.1" man)
foreach(section "SYNOPSIS" "EXIT STATUS" "UNITS" "EXAMPLES")
  if(NOT man MATCHES "${section}")
    message(FATAL_ERROR "man page lacks ${section}")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
