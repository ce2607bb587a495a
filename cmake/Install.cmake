# Install rules: `cmake --install BUILD [--prefix DIR]` puts
#   <prefix>/lib/libmbdae.so.X (+ links) and libmbdae.a   the library
#   <prefix>/include/mbdae/*.h                            the public API
#   <prefix>/bin/mbdae                                    the command
#   <prefix>/share/mbdae/scenarios/                       the shipped scenarios
#   <prefix>/lib/cmake/mbdae/                             find_package(mbdae)
#   <prefix>/lib/pkgconfig/mbdae.pc                       pkg-config mbdae
# (documents, man page and bash completion: cmake/Docs.cmake; the Python
# package: python/CMakeLists.txt)
# (lib/ is GNUInstallDirs' CMAKE_INSTALL_LIBDIR, e.g. lib/x86_64-linux-gnu
# under /usr.) Everything installed is relocatable: the package config and
# the .pc file locate the prefix from their own position, so the tree may be
# installed with --prefix anywhere and moved.
#
# The installed library is one library, "libmbdae": the engine, the model
# kinds, the validation cases and the driver (scenario loader, runs, writers,
# checkpoints, sweeps, plug-ins: mbdae/simulation.h), i.e. everything the
# public headers declare. It is linked from the objects of the in-tree static
# targets `mbdae`, `mbdae_validation` and `mbdae_driver` (compiled once,
# position independent), so the in-tree build is unchanged.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MBDAE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mbdae)
set(MBDAE_SCENARIO_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/mbdae/scenarios)
# Pre-1.0 every minor release may break the ABI: SONAME libmbdae.so.0.1.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(MBDAE_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(MBDAE_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()

# Libraries of mbdae_deps_solver by their link names (the same names
# cmake/Dependencies.cmake searches when SUNDIALS has no CMake package). A
# consumer of the shared library needs none of them at build time (they are
# linked PRIVATE into libmbdae.so); a consumer of the static one links them.
set(MBDAE_STATIC_DEP_NAMES sundials_ida sundials_cvode sundials_arkode sundials_nvecserial
    sundials_sunmatrixdense sundials_sunmatrixsparse sundials_sunlinsoldense
    sundials_sunlinsolklu sundials_sunnonlinsolfixedpoint klu ldl amd metis yaml matio)
# Where they were found here, as search hints for the consumer (only those
# outside the compiler's implicit directories, so a Debian install records none).
set(MBDAE_STATIC_DEP_DIRS)
foreach(name ${MBDAE_STATIC_DEP_NAMES})
  find_library(MBDAE_DEPLIB_${name} ${name} REQUIRED)
  mark_as_advanced(MBDAE_DEPLIB_${name})
  get_filename_component(dir ${MBDAE_DEPLIB_${name}} DIRECTORY)
  if(NOT dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES AND NOT dir IN_LIST MBDAE_STATIC_DEP_DIRS)
    list(APPEND MBDAE_STATIC_DEP_DIRS ${dir})
  endif()
endforeach()

# A sanitized build (MBDAE_SANITIZE) produces a library that needs the
# sanitizer runtimes: say so in its link interface, so consumers link them.
set(MBDAE_CONSUMER_LINK_OPTIONS)
if(MBDAE_SANITIZE)
  set(MBDAE_CONSUMER_LINK_OPTIONS -fsanitize=address,undefined)
endif()

# --- the two installable variants of libmbdae --------------------------------
# Compiled with hidden visibility: libmbdae.so exports only what the public
# headers mark MBDAE_EXPORT (include/mbdae/export.h), all named mbdae_*.
set_target_properties(mbdae mbdae_validation mbdae_driver PROPERTIES
  POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
set(MBDAE_LIBRARY_OBJECTS $<TARGET_OBJECTS:mbdae> $<TARGET_OBJECTS:mbdae_validation>
    $<TARGET_OBJECTS:mbdae_driver>)

add_library(mbdae_shared SHARED ${MBDAE_LIBRARY_OBJECTS})
add_library(mbdae_static STATIC ${MBDAE_LIBRARY_OBJECTS})
foreach(t mbdae_shared mbdae_static)
  set_target_properties(${t} PROPERTIES OUTPUT_NAME mbdae
    ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib   # not the in-tree libmbdae.a
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
  target_include_directories(${t} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_options(${t} INTERFACE ${MBDAE_CONSUMER_LINK_OPTIONS})
endforeach()
set_target_properties(mbdae_shared PROPERTIES EXPORT_NAME mbdae_shared
  VERSION ${PROJECT_VERSION} SOVERSION ${MBDAE_SOVERSION})
set_target_properties(mbdae_static PROPERTIES EXPORT_NAME mbdae_static)
# libm is in the link interface: the public headers are used with <math.h>
# (HUGE_VAL bounds in parameter schemas, models' own sin/sqrt), and a
# consumer of mbdae::mbdae or `pkg-config --libs mbdae` links it.
target_link_libraries(mbdae_shared PRIVATE mbdae_deps_solver mbdae_deps_driver ${CMAKE_DL_LIBS}
                      PUBLIC m)
# Every symbol of libmbdae.so must resolve in the library and its dependencies.
target_link_options(mbdae_shared PRIVATE -Wl,--no-undefined)
# The static archive's link interface: our dependency target in the build
# tree, the package config's mbdae::deps (found on the consumer's machine)
# when installed.
target_link_libraries(mbdae_static INTERFACE
  $<BUILD_INTERFACE:mbdae_deps_solver> $<BUILD_INTERFACE:mbdae_deps_driver>
  $<INSTALL_INTERFACE:mbdae::deps> ${CMAKE_DL_LIBS})

# --- the command and its scenarios --------------------------------------------
# The installed `mbdae list` finds the scenarios relative to its own
# executable (bindir -> datadir/mbdae/scenarios), so an installed tree is
# relocatable; a build-tree binary has no such directory next to it and
# keeps listing the source tree's scenarios (MBDAE_SCENARIO_DIR).
file(RELATIVE_PATH MBDAE_SCENARIO_RELDIR ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/mbdae/scenarios)
# ... and libmbdae.so (a program or Python using the library) relative to
# its own file: libdir -> datadir/mbdae/scenarios
file(RELATIVE_PATH MBDAE_SCENARIO_LIB_RELDIR ${CMAKE_INSTALL_FULL_LIBDIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/mbdae/scenarios)
target_compile_definitions(mbdae_driver PRIVATE MBDAE_SCENARIO_RELDIR="${MBDAE_SCENARIO_RELDIR}"
  MBDAE_SCENARIO_LIB_RELDIR="${MBDAE_SCENARIO_LIB_RELDIR}")

install(TARGETS mbdae_shared mbdae_static EXPORT mbdaeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mbdae
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
if(TARGET mbdae_cli)
  # MPI may live outside the default search path: keep its directory in the
  # installed binary's RUNPATH.
  set_target_properties(mbdae_cli PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS mbdae_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# the whole directory: studies name their base scenarios by relative path
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${MBDAE_SCENARIO_INSTALL_DIR})

# --- find_package(mbdae) --------------------------------------------------------
install(EXPORT mbdaeTargets NAMESPACE mbdae:: DESTINATION ${MBDAE_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mbdaeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mbdaeConfig.cmake INSTALL_DESTINATION ${MBDAE_CMAKE_DIR}
  PATH_VARS MBDAE_SCENARIO_INSTALL_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mbdaeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mbdaeConfig.cmake
  ${PROJECT_BINARY_DIR}/mbdaeConfigVersion.cmake DESTINATION ${MBDAE_CMAKE_DIR})

# --- pkg-config mbdae -------------------------------------------------------------
# prefix is found from the .pc file's own directory (${pcfiledir}).
file(RELATIVE_PATH MBDAE_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" MBDAE_PC_TO_PREFIX "${MBDAE_PC_TO_PREFIX}")
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(MBDAE_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(MBDAE_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
set(MBDAE_PC_LIBS_PRIVATE)
foreach(dir ${MBDAE_STATIC_DEP_DIRS})
  string(APPEND MBDAE_PC_LIBS_PRIVATE " -L${dir}")
endforeach()
foreach(name ${MBDAE_STATIC_DEP_NAMES} m ${CMAKE_DL_LIBS})
  string(APPEND MBDAE_PC_LIBS_PRIVATE " -l${name}")
endforeach()
string(STRIP "${MBDAE_PC_LIBS_PRIVATE}" MBDAE_PC_LIBS_PRIVATE)
set(MBDAE_PC_LIBS_EXTRA)
foreach(opt ${MBDAE_CONSUMER_LINK_OPTIONS})
  string(APPEND MBDAE_PC_LIBS_EXTRA " ${opt}")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/mbdae.pc.in ${PROJECT_BINARY_DIR}/mbdae.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mbdae.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
