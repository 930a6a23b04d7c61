# Warnings, per compiler: GCC and Clang (C, C++ and gfortran); other compilers get their defaults.
set(LODEX_WARNING_FLAGS
    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Wall$<SEMICOLON>-Wextra>
    $<$<COMPILE_LANG_AND_ID:C,GNU,Clang,AppleClang>:-Wall$<SEMICOLON>-Wextra>
    $<$<COMPILE_LANG_AND_ID:Fortran,GNU>:-Wall$<SEMICOLON>-Wextra>)

# lodex_warnings(target ...): lodex's warning flags on the targets lodex compiles (not on the
# nanobind library python/bindings builds beside its module).
function(lodex_warnings)
  foreach(t IN LISTS ARGN)
    target_compile_options(${t} PRIVATE ${LODEX_WARNING_FLAGS})
  endforeach()
endfunction()

# lodex_layer_root(layer out): the include root of layer src/<layer>, a folder of the build tree
# holding one link, <layer> -> src/<layer>. A target with this root on its include path finds the
# layer's headers as "<layer>/x.hpp" and no other layer's.
function(lodex_layer_root layer out)
  set(root ${PROJECT_BINARY_DIR}/layers/${layer})
  if(IS_SYMLINK ${root}/${layer})
    file(REMOVE ${root}/${layer})
  endif()
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${layer} ${root}/${layer} SYMBOLIC)
  set(${out} ${root} PARENT_SCOPE)
endfunction()

# lodex_add_module(name SOURCES ... DEPS ...): one static library per layer folder (the folder
# this is called from). Its include root is PUBLIC and its DEPS are, so a target sees the headers
# of its own layer and of the layers it links, and a header of any other layer does not compile
# (docs/architecture.md; the probes in tests/layering check it).
function(lodex_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  get_filename_component(layer ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  lodex_layer_root(${layer} root)
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${root}>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  lodex_warnings(${name})
endfunction()

# lodex_add_unit_test(name SOURCES ... DEPS ...): a GoogleTest binary run once by ctest.
function(lodex_add_unit_test name)
  if(NOT LODEX_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  lodex_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 LABELS unit)
endfunction()

# lodex_add_mpi_test(name SOURCES ... DEPS ... RANKS 1 2 3 ...): one source, run by ctest at
# every listed rank count, each with a timeout so a deadlock fails instead of hanging.
function(lodex_add_mpi_test name)
  if(NOT LODEX_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;RANKS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  lodex_warnings(${name})
  foreach(n IN LISTS ARG_RANKS)
    add_test(NAME ${name}_np${n}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} $<TARGET_FILE:${name}>)
    set_tests_properties(${name}_np${n} PROPERTIES TIMEOUT 120 LABELS mpi PROCESSORS 2)
  endforeach()
endfunction()
