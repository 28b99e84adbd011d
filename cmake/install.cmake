# Installation, the CMake package and the Debian package.
#
#   PREFIX/bin/mslport, mslport-run
#   PREFIX/include/mslport/          the runtime headers (host.h, kernel_abi.h, openmp_rt.h, ...)
#   PREFIX/share/mslport/            the Metal parse shims, the Python module, the plot script
#   PREFIX/share/man/man1/mslport.1  the manual page (tool/CMakeLists.txt makes it from the help)
#   PREFIX/lib/cmake/mslport/        find_package(mslport): mslport::mslport, mslport::headers,
#                                    mslport_translate()
#
# The programs find the rest relative to themselves (lib/support/install_paths.h),
# so these directory names are fixed, and an installed tree can be moved.
include(CMakePackageConfigHelpers)

install(TARGETS mslport mslport-run RUNTIME DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/lib/runtime/include/mslport DESTINATION include)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/lib/front/metal_include DESTINATION share/mslport)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/mslport_golden DESTINATION share/mslport/python
        PATTERN __pycache__ EXCLUDE)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/scripts/plot_bench.py DESTINATION share/mslport)
install(FILES ${CMAKE_BINARY_DIR}/mslport.1 DESTINATION share/man/man1)

# One template, two packages: the installed one finds everything relative to
# itself; the build tree's (build/lib/cmake/mslport, so that
# -DCMAKE_PREFIX_PATH=build finds it) points into the build tree.
set(MSLPORT_CONFIG_DIR lib/cmake/mslport)
function(mslport_package_config prefix exe include_dir into)
  set(MSLPORT_EXE ${exe})
  set(MSLPORT_HEADERS ${include_dir})
  configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/mslportConfig.cmake.in ${into}/mslportConfig.cmake
    INSTALL_DESTINATION ${MSLPORT_CONFIG_DIR} INSTALL_PREFIX ${prefix}
    PATH_VARS MSLPORT_EXE MSLPORT_HEADERS NO_SET_AND_CHECK_MACRO)
endfunction()
mslport_package_config(${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/tool/mslport ${CMAKE_BINARY_DIR}/include
                       ${CMAKE_BINARY_DIR}/${MSLPORT_CONFIG_DIR})
mslport_package_config(${CMAKE_INSTALL_PREFIX} bin/mslport include ${CMAKE_BINARY_DIR}/install-config)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/${MSLPORT_CONFIG_DIR}/mslportConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
configure_file(${CMAKE_SOURCE_DIR}/cmake/mslportTranslate.cmake
               ${CMAKE_BINARY_DIR}/${MSLPORT_CONFIG_DIR}/mslportTranslate.cmake COPYONLY)
install(FILES ${CMAKE_BINARY_DIR}/install-config/mslportConfig.cmake
              ${CMAKE_BINARY_DIR}/${MSLPORT_CONFIG_DIR}/mslportConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/mslportTranslate.cmake
        DESTINATION ${MSLPORT_CONFIG_DIR})

# The Debian package: `cpack -G DEB` in the build directory writes
# mslport_VERSION_ARCH.deb (installing into /usr). Shared-library
# dependencies come from dpkg-shlibdeps; `check` also needs the compiler
# it builds emitted C++ with, and OpenMP for it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mslport)
set(CPACK_PACKAGE_VENDOR mslport)
set(CPACK_PACKAGE_CONTACT "mslport maintainers <mslport@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "port Metal compute kernels to C++/OpenMP and OpenCL C, checked against golden outputs")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
get_filename_component(mslport_emitted_cxx_name "${MSLPORT_EMITTED_CXX}" NAME)
if(mslport_emitted_cxx_name STREQUAL "clang++-19")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-19, libomp-19-dev")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-matplotlib")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)
