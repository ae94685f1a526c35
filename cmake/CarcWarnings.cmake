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

# A one-line helper per doctest test executable.
function(carc_test name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE doctest::doctest)
  carc_warnings(${name})
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()
