# The Debian package (`cpack -G DEB` in the build tree, or ci/package): what cmake --install
# puts in the prefix (cmake/Install.cmake), under /usr, with the binary stripped.
# Depends: comes from dpkg-shlibdeps on the binary, never typed here. Recommends: and Suggests:
# name the Debian packages of the tools gpuconform runs where it finds them; a check whose tool
# is absent reports a tooling error naming it rather than failing the node.
# The version is the build's (generated/version.txt, read when cpack runs, through
# cmake/CPackProjectConfig.cmake), so `gpuconform version` and the package always agree.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpuconform)
set(CPACK_PACKAGE_VENDOR "the gpuconform authors")
set(CPACK_PACKAGE_CONTACT ${GPUCONFORM_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${GPUCONFORM_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "conformance tests for multi-node GPU clusters")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"gpuconform checks that a Slurm GPU cluster is fit for distributed training:
NVLink and NVSwitch connectivity, InfiniBand and PCIe links, NCCL transports,
allreduce bandwidth, Slurm GRES, MUNGE keys, software versions, checkpoint
storage and the torchrun launch path. It runs on every node of an allocation,
or judges a snapshot of raw command outputs offline, and writes JUnit, JSON,
HTML and Prometheus reports. It can also serve as Slurm's HealthCheckProgram
and drain the nodes it finds at fault.

NVIDIA's NVML, CUDA and NCCL libraries are loaded at run time where a node has
them. NCCL's all_reduce_perf (nccl-tests, not packaged in Debian) is used
where it is on the PATH.")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Run on every node: Slurm's clients (scontrol, sinfo, srun, salloc), MUNGE, Open MPI's mpirun
# (the MPI sweep), lspci and ip.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "slurm-client, munge, openmpi-bin, pciutils, iproute2")
# Run where a node has them: the InfiniBand tools (ibstat, ibstatus, perfquery; ibv_devinfo),
# NVIDIA's nvidia-smi (Debian non-free), PyTorch's torchrun, and the shell completion's loader.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "infiniband-diags, ibverbs-utils, nvidia-smi, python3-torch, bash-completion")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_SOURCE_DIR}/cmake/CPackProjectConfig.cmake)
set(CPACK_GPUCONFORM_VERSION_TXT ${GPUCONFORM_VERSION_TXT})
include(CPack)
