# lodex_add_module(name SOURCES ... DEPS ...): one static library per layer folder.
function(lodex_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
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
  foreach(n IN LISTS ARG_RANKS)
    add_test(NAME ${name}_np${n}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} $<TARGET_FILE:${name}>)
    set_tests_properties(${name}_np${n} PROPERTIES TIMEOUT 120 LABELS mpi PROCESSORS 2)
  endforeach()
endfunction()
