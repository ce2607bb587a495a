# Dependencies, all from Debian 12 packages, found without hard-coded paths.
#   libsundials-dev (IDA, CVODE, ARKODE, sunlinsol_klu, sunmatrix_sparse)
#   libsuitesparse-dev (KLU, LDL, AMD), libmetis-dev (nested dissection ordering)
#   libyaml-dev (scenario files), libmatio-dev (.mat output), libcunit1-dev (tests)
find_package(PkgConfig REQUIRED)

find_package(SUNDIALS 6.4 CONFIG QUIET)
if(SUNDIALS_FOUND AND TARGET SUNDIALS::ida_shared AND TARGET SUNDIALS::arkode_shared
   AND TARGET SUNDIALS::sunlinsolklu_shared)
  set(MBDAE_SUNDIALS_LIBS SUNDIALS::ida_shared SUNDIALS::cvode_shared
      SUNDIALS::arkode_shared
      SUNDIALS::nvecserial_shared SUNDIALS::sunmatrixdense_shared
      SUNDIALS::sunmatrixsparse_shared SUNDIALS::sunlinsoldense_shared
      SUNDIALS::sunlinsolklu_shared SUNDIALS::sunnonlinsolfixedpoint_shared)
  message(STATUS "SUNDIALS ${SUNDIALS_VERSION} (CMake package)")
else()
  find_path(SUNDIALS_INCLUDE_DIR ida/ida.h REQUIRED)
  set(MBDAE_SUNDIALS_LIBS)
  foreach(lib sundials_ida sundials_cvode sundials_arkode sundials_nvecserial sundials_sunmatrixdense
              sundials_sunmatrixsparse sundials_sunlinsoldense sundials_sunlinsolklu
              sundials_sunnonlinsolfixedpoint)
    find_library(MBDAE_LIB_${lib} ${lib} REQUIRED)
    list(APPEND MBDAE_SUNDIALS_LIBS ${MBDAE_LIB_${lib}})
  endforeach()
  message(STATUS "SUNDIALS (found by library search)")
endif()

find_path(KLU_INCLUDE_DIR klu.h PATH_SUFFIXES suitesparse REQUIRED)
find_library(KLU_LIBRARY klu REQUIRED)
# LDL and AMD (same package as KLU): LDL^T of the moreau reduced systems
# (solver/ns_factor.c; CHOLMOD's simplicial LDL^T is as fast but loads BLAS
# and LAPACK, 9 ms of CPU at every start)
find_library(LDL_LIBRARY ldl REQUIRED)
find_library(AMD_LIBRARY amd REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)
find_path(METIS_INCLUDE_DIR metis.h REQUIRED)

add_library(mbdae_deps_solver INTERFACE)
target_include_directories(mbdae_deps_solver INTERFACE ${KLU_INCLUDE_DIR} ${METIS_INCLUDE_DIR})
target_link_libraries(mbdae_deps_solver INTERFACE ${MBDAE_SUNDIALS_LIBS} ${KLU_LIBRARY}
                      ${LDL_LIBRARY} ${AMD_LIBRARY}
                      ${METIS_LIBRARY} m)

# libyaml-dev: the scenario and study files (its event parser, driver/yaml_tree.c)
pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)
# libmatio-dev: results.mat for MATLAB/Octave (`mbdae run --format mat`)
pkg_check_modules(MATIO REQUIRED IMPORTED_TARGET matio)
add_library(mbdae_deps_driver INTERFACE)
target_link_libraries(mbdae_deps_driver INTERFACE PkgConfig::YAML PkgConfig::MATIO)

if(MBDAE_TESTS) # the test suite only (-DMBDAE_TESTS=OFF: `bootstrap.sh demo`)
  pkg_check_modules(CUNIT REQUIRED IMPORTED_TARGET cunit)
endif()

find_program(GNUPLOT_EXECUTABLE gnuplot)
if(GNUPLOT_EXECUTABLE)
  message(STATUS "gnuplot: ${GNUPLOT_EXECUTABLE} (PNG plots enabled)")
else()
  message(STATUS "gnuplot not found: runs will write CSV and summary.json only")
endif()
