# Optional MPI (Open MPI from Debian: libopenmpi-dev, openmpi-bin) for
# `mbdae sweep`: when found, the command is built with MBDAE_HAVE_MPI and
# splits a study's runs over the ranks of `mpirun -np N mbdae sweep STUDY`.
# Without MPI the sweep runs every run in one process (same output files).
option(MBDAE_MPI "Use MPI for parameter sweeps when found" ON)
if(MBDAE_MPI)
  find_package(MPI COMPONENTS C QUIET)
endif()
if(MBDAE_MPI AND MPI_C_FOUND)
  message(STATUS "MPI ${MPI_C_VERSION}: mbdae sweep runs distributed")
  # only the command (sweep_cmd.c): libmbdae runs a study in one process
  target_link_libraries(mbdae_commands PUBLIC MPI::MPI_C)
  target_compile_definitions(mbdae_commands PRIVATE MBDAE_HAVE_MPI)
  find_program(MBDAE_MPIEXEC NAMES mpirun mpiexec HINTS ${MPIEXEC_EXECUTABLE})
else()
  message(STATUS "MPI not used: mbdae sweep runs in one process")
endif()
