# mcph_fuzz_target(NAME SOURCES f.c... [INCLUDES dir...] [LIBS target...]
#                  [CORPUS dir|file...] [DICT file] [RUNS n])
#
# Every fuzz target is declared once, here, and gets:
#  - fuzz_NAME_driver, built by any compiler with driver.c: it runs the
#    seed corpus (tests/fuzz/corpus/NAME/ plus CORPUS), the regression
#    inputs (tests/fuzz/regress/NAME/) and RUNS seeded mutations (default
#    MCPH_FUZZ_RUNS); ctest runs it as fuzz_NAME, in a second or two;
#  - with clang and MCPHOST_FUZZ=ON, fuzz_NAME, the libFuzzer binary
#    (-fsanitize=fuzzer,address,undefined, nothing recovers), built by
#    the target fuzz_all and run by `make fuzz` (tests/fuzz/run.sh), which
#    reads what to feed it from BUILD/tests/fuzz/targets/NAME.txt.
# A target's source only defines LLVMFuzzerTestOneInput and aborts when
# one of the unit's promises does not hold.
option(MCPHOST_FUZZ "Build the libFuzzer binaries (clang only; make fuzz)"
       OFF)
set(MCPH_FUZZ_RUNS 20000 CACHE STRING
    "Seeded mutations the ctest fuzz driver runs per target")
set(MCPH_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MCPH_FUZZ_LIBFUZZER OFF)
if(MCPHOST_FUZZ)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(MCPH_FUZZ_LIBFUZZER ON)
    if(NOT TARGET fuzz_all)
      add_custom_target(fuzz_all)
    endif()
  else()
    message(WARNING "MCPHOST_FUZZ needs clang (CC=clang); only the "
                    "fuzz drivers are built")
  endif()
endif()

function(mcph_fuzz_target NAME)
  cmake_parse_arguments(F "" "DICT;RUNS" "SOURCES;INCLUDES;LIBS;CORPUS"
                        ${ARGN})
  if(NOT F_SOURCES)
    message(FATAL_ERROR "mcph_fuzz_target(${NAME}): no SOURCES")
  endif()
  if(NOT F_RUNS)
    set(F_RUNS ${MCPH_FUZZ_RUNS})
  endif()
  set(inputs)
  foreach(dir ${MCPH_FUZZ_DIR}/corpus/${NAME} ${F_CORPUS}
          ${MCPH_FUZZ_DIR}/regress/${NAME})
    if(EXISTS ${dir})
      list(APPEND inputs ${dir})
    endif()
  endforeach()
  if(NOT inputs)
    message(FATAL_ERROR "mcph_fuzz_target(${NAME}): no seed corpus "
                        "(tests/fuzz/corpus/${NAME}/ or CORPUS)")
  endif()

  add_executable(fuzz_${NAME}_driver ${F_SOURCES} ${MCPH_FUZZ_DIR}/driver.c)
  target_include_directories(fuzz_${NAME}_driver PRIVATE ${F_INCLUDES})
  target_link_libraries(fuzz_${NAME}_driver PRIVATE ${F_LIBS})
  add_test(NAME fuzz_${NAME}
           COMMAND fuzz_${NAME}_driver -n ${F_RUNS} ${inputs})

  if(MCPH_FUZZ_LIBFUZZER)
    set(san -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
            -fno-omit-frame-pointer)
    add_executable(fuzz_${NAME} EXCLUDE_FROM_ALL ${F_SOURCES})
    target_include_directories(fuzz_${NAME} PRIVATE ${F_INCLUDES})
    target_link_libraries(fuzz_${NAME} PRIVATE ${F_LIBS})
    target_compile_options(fuzz_${NAME} PRIVATE ${san})
    target_link_options(fuzz_${NAME} PRIVATE ${san})
    add_dependencies(fuzz_all fuzz_${NAME})
    # What run.sh feeds the binary: one "corpus PATH" line per seed
    # directory or file, "dict PATH" for the dictionary.
    set(spec "bin $<TARGET_FILE:fuzz_${NAME}>\n")
    foreach(dir ${inputs})
      string(APPEND spec "corpus ${dir}\n")
    endforeach()
    if(F_DICT)
      string(APPEND spec "dict ${F_DICT}\n")
    endif()
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/tests/fuzz/targets/${NAME}.txt
         CONTENT "${spec}")
  endif()
endfunction()
