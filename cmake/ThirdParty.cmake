# The third-party libraries, found once for the whole tree, and how the tools link them.
#
# With QSPEC_STATIC_DEPS (the default) the tools link Debian's static archives of ANTLR's runtime,
# yaml-cpp, libyaml and protobuf, and libstdc++/libgcc statically: the dynamic loader then has no
# C++ symbols to look up and relocate at every start, which was 5-6 ms of a 50 ms qcc run
# (docs/performance.md, "Start-up: the libraries linked statically"). Sanitizer and fuzz builds
# link the shared libraries as before (their runtimes expect a shared libstdc++).
#
# Targets link these through variables, not the imported targets' names:
#   QSPEC_ANTLR4     ANTLR's C++ runtime
#   QSPEC_YAML_CPP   yaml-cpp
#   QSPEC_LIBYAML    libyaml (its event API, frontend/readers)
#   QSPEC_PROTOBUF   protobuf (FindProtobuf picks the archive with Protobuf_USE_STATIC_LIBS)
#   OpenSSL::Crypto  libcrypto (FindOpenSSL picks the archive with OPENSSL_USE_STATIC_LIBS)
# and each tool calls qspec_link_runtime(TARGET). The installed CMake package names the shared
# libraries (find_package(qspec) consumers link whatever their Debian provides).

option(QSPEC_STATIC_DEPS "Link the tools with the third-party libraries and libstdc++ statically" ON)
if(QSPEC_SANITIZE OR QSPEC_FUZZ)
  set(QSPEC_STATIC_DEPS OFF CACHE BOOL "Sanitizer and fuzz builds link the shared libraries" FORCE)
endif()
if(QSPEC_STATIC_DEPS)
  set(Protobuf_USE_STATIC_LIBS ON)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()
# FindProtobuf caches the library it found: when the choice changes in a configured tree, look
# again, or a tool would mix a static libstdc++ with the one a shared libprotobuf loads.
if(NOT "${QSPEC_STATIC_DEPS_FOUND}" STREQUAL "${QSPEC_STATIC_DEPS}")
  foreach(lib Protobuf_LIBRARY Protobuf_LITE_LIBRARY Protobuf_PROTOC_LIBRARY)
    unset(${lib}_RELEASE CACHE)
    unset(${lib}_DEBUG CACHE)
  endforeach()
endif()
set(QSPEC_STATIC_DEPS_FOUND ${QSPEC_STATIC_DEPS} CACHE INTERNAL "QSPEC_STATIC_DEPS when the libraries were found")

find_package(antlr4-runtime REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(Protobuf REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(ONNX REQUIRED)
if(QSPEC_BUILD_TESTS OR QSPEC_FUZZ)
  find_package(GTest REQUIRED) # the unit tests only
endif()
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto) # SHA-256 (support/Sha256.cpp)

if(QSPEC_STATIC_DEPS)
  find_library(QSPEC_YAML_CPP_ARCHIVE libyaml-cpp.a REQUIRED)
  find_library(QSPEC_LIBYAML_ARCHIVE libyaml.a REQUIRED)
  find_library(QSPEC_PROTOBUF_SHARED libprotobuf.so REQUIRED)
  # Debian's archives hold position-dependent code, which a shared object (the Python module,
  # driver/python) cannot take: a target whose QSPEC_SHARED_DEPS property is set links the shared
  # libraries instead ($<TARGET_PROPERTY:...> reads the target being linked).
  set(_shared "$<BOOL:$<TARGET_PROPERTY:QSPEC_SHARED_DEPS>>")
  set(QSPEC_ANTLR4 "$<IF:${_shared},antlr4_shared,antlr4_static>")
  # The archive inside this tree; the installed package's consumers link the shared library.
  set(QSPEC_YAML_CPP
      "$<BUILD_INTERFACE:$<IF:${_shared},yaml-cpp,${QSPEC_YAML_CPP_ARCHIVE}>>;$<INSTALL_INTERFACE:yaml-cpp>")
  set(QSPEC_LIBYAML
      "$<BUILD_INTERFACE:$<IF:${_shared},yaml,${QSPEC_LIBYAML_ARCHIVE}>>;$<INSTALL_INTERFACE:yaml>")
  set(QSPEC_PROTOBUF
      "$<BUILD_INTERFACE:$<IF:${_shared},${QSPEC_PROTOBUF_SHARED},protobuf::libprotobuf>>;$<INSTALL_INTERFACE:protobuf::libprotobuf>")
else()
  set(QSPEC_ANTLR4 antlr4_shared)
  set(QSPEC_YAML_CPP yaml-cpp)
  set(QSPEC_LIBYAML yaml)
  set(QSPEC_PROTOBUF protobuf::libprotobuf)
endif()

# A tool (qcc, qlint, qtune, qspec-lsp): with QSPEC_STATIC_DEPS its libstdc++ and libgcc are
# linked in too. Test programs keep the shared ones, which GoogleTest was built against.
function(qspec_link_runtime target)
  if(QSPEC_STATIC_DEPS)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
