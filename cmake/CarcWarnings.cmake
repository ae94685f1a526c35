# One place for warnings: every target calls carc_warnings(target).
function(carc_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports false positives for std::variant / std::optional moves and for
    # std::string concatenation at -O2 (GCC bugs 105329, 105651).
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized -Wno-restrict)
  endif()
  if(CARC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# The tests' own code (not the code under test, which keeps the build's flags) compiles at
# -O1 in optimized builds: it is glue around real servers and the libraries, and -O3 took
# twice as long to compile it (docs/development.md).
function(carc_test_code target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endfunction()

# A test executable whose tests mostly wait on a real server (its timers, its sockets, its
# database): its own code compiles without optimization, in half the time, and its tests take
# as long (docs/development.md). The code under test keeps the build's flags.
function(carc_test_waits target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O0>)
endfunction()

# A doctest test executable. Each of its sources that holds test cases is a ctest test of
# its own, `name/stem`, which runs the executable with doctest's source-file filter: most
# of these tests wait on a real server's timers, and `ctest -j` then runs the files of one
# executable side by side (docs/development.md, "The test command's time"). An executable
# with one such source is one test, `name`. tests/check-shards.sh checks that the shards
# together run every test case once.
function(carc_test name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE carc_doctest_main)
  carc_warnings(${name})
  carc_test_code(${name})
  set(files "")
  foreach(src IN LISTS ARGN)
    get_filename_component(path "${src}" ABSOLUTE)
    file(STRINGS "${path}" cases REGEX "^[ \t]*(TEST_CASE|SCENARIO)")
    if(cases)
      get_filename_component(file_name "${src}" NAME)
      list(APPEND files "${file_name}")
    endif()
  endforeach()
  list(LENGTH files count)
  set(tests "")
  if(count LESS 2)
    add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    list(APPEND tests ${name})
  else()
    foreach(file_name IN LISTS files)
      get_filename_component(stem "${file_name}" NAME_WE)
      add_test(NAME ${name}/${stem} COMMAND ${name} "--source-file=*/${file_name}"
               WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
      list(APPEND tests ${name}/${stem})
    endforeach()
  endif()
  set_property(GLOBAL PROPERTY carc_tests_${name} ${tests})
  string(REPLACE ";" "," listed "${files}")
  file(APPEND "${CMAKE_BINARY_DIR}/test-shards.txt" "${name} ${listed}\n")
endfunction()

# A property of every ctest test an executable of carc_test registered.
function(carc_test_properties name)
  get_property(tests GLOBAL PROPERTY carc_tests_${name})
  set_tests_properties(${tests} PROPERTIES ${ARGN})
endfunction()
