# mcphost_add_plugin(NAME SOURCES... [LIBS libs...] [OUTPUT_DIR dir]
#                    [INSTALL_DIR dir] [NO_INSTALL])
#
# Builds a plugin the way the ABI requires: hidden visibility, a version
# script that exports only `mcph_plugin_entry`, and -z defs so that an
# undefined symbol fails the link rather than the dlopen(). It goes to the
# plugin directory unless OUTPUT_DIR and INSTALL_DIR say otherwise.
set(MCPHOST_PLUGIN_VERSION_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/plugin.map"
    CACHE INTERNAL "")

function(mcphost_add_plugin name)
  cmake_parse_arguments(P "NO_INSTALL" "OUTPUT_DIR;INSTALL_DIR" "LIBS" ${ARGN})
  add_library(${name} MODULE ${P_UNPARSED_ARGUMENTS})
  if(NOT P_OUTPUT_DIR)
    set(P_OUTPUT_DIR "${MCPHOST_PLUGIN_BUILD_DIR}")
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY "${P_OUTPUT_DIR}")
  target_link_libraries(${name} PRIVATE mcphost_sdk ${P_LIBS})
  target_link_options(${name} PRIVATE
    "-Wl,--version-script=${MCPHOST_PLUGIN_VERSION_SCRIPT}"
    "-Wl,-z,defs")
  if(NOT P_INSTALL_DIR)
    set(P_INSTALL_DIR "${MCPHOST_PLUGIN_SUBDIR}")
  endif()
  if(NOT P_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION "${P_INSTALL_DIR}")
  endif()
endfunction()

# mcphost_add_lazy_transport(NAME SOURCES... [LIBS libs...])
#
# A transport plugin whose libraries are loaded only when a transport of
# its types is created. NAME.so in the plugin directory is a stub
# (transports/common/plugin_stub.c): its entry's provides list (ABI 1.6)
# declares the types and names NAME.so in the implementation directory,
# which the host does not scan, and the host opens that at the first
# create() (host/core/plugin_impl.c). SOURCES and LIBS build that
# implementation (target NAME-impl). The calling directory holds
# plugin_info.h, the id, name, version, description and types that both
# halves show.
function(mcphost_add_lazy_transport name)
  cmake_parse_arguments(P "" "" "LIBS" ${ARGN})
  mcphost_add_plugin(${name}-impl ${P_UNPARSED_ARGUMENTS}
    LIBS ${P_LIBS}
    OUTPUT_DIR "${MCPHOST_IMPL_BUILD_DIR}"
    INSTALL_DIR "${MCPHOST_IMPL_SUBDIR}")
  set_target_properties(${name}-impl PROPERTIES OUTPUT_NAME ${name})

  mcphost_add_plugin(${name}
    ${PROJECT_SOURCE_DIR}/transports/common/plugin_stub.c)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE LAZY_IMPL_FILE="${name}.so")
  # Built with it, so that a build of the plugin is never without it.
  add_dependencies(${name} ${name}-impl)
endfunction()
