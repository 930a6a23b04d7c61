# What `cmake --install` (and `make install PREFIX=...`) puts under the prefix: the public
# headers, liblodex.so with its SONAME link, the Fortran module and library when built, the CMake
# package lodex (lodexConfig.cmake, version file, targets) and lodex.pc (lodex-fortran.pc with the
# Fortran module) for pkg-config.
include(CMakePackageConfigHelpers)

set(LODEX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/lodex)
set(LODEX_FORTRAN_MODULE_DIR ${CMAKE_INSTALL_INCLUDEDIR}/lodex/fortran)

install(FILES ${PROJECT_SOURCE_DIR}/include/lodex.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/lodex/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lodex
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/lodex/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lodex)

set(_lodex_install_targets lodex_shared)
if(LODEX_WITH_FORTRAN)
  list(APPEND _lodex_install_targets lodex_fortran)
  install(DIRECTORY ${LODEX_FORTRAN_MODULE_BUILD_DIR}/ DESTINATION ${LODEX_FORTRAN_MODULE_DIR}
          FILES_MATCHING PATTERN "*.mod")
endif()
install(TARGETS ${_lodex_install_targets} EXPORT lodexTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT lodexTargets NAMESPACE lodex:: DESTINATION ${LODEX_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lodexConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/lodexConfig.cmake INSTALL_DESTINATION ${LODEX_CMAKE_DIR})
# 0.x: a minor release may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lodexConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lodexConfig.cmake ${PROJECT_BINARY_DIR}/lodexConfigVersion.cmake
        DESTINATION ${LODEX_CMAKE_DIR})

file(RELATIVE_PATH LODEX_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/lodex.pc.in ${PROJECT_BINARY_DIR}/lodex.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lodex.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(LODEX_WITH_FORTRAN)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/lodex-fortran.pc.in ${PROJECT_BINARY_DIR}/lodex-fortran.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/lodex-fortran.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
