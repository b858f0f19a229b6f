# mcphost's own plugins are built by the function the installed SDK gives
# third parties (McpHostAddPlugin.cmake), into the build tree's plugin
# directory and installed into the prefix's, unless they say otherwise.
set(MCPHOST_PLUGIN_DEFAULT_OUTPUT_DIR "${MCPHOST_PLUGIN_BUILD_DIR}")
set(MCPHOST_PLUGIN_DEFAULT_INSTALL_DIR "${MCPHOST_PLUGIN_SUBDIR}")
include("${CMAKE_CURRENT_LIST_DIR}/McpHostAddPlugin.cmake")

# mcphost_add_plugin_stub(NAME [SOURCES...] [LIBS libs...])
#
# NAME.so in the plugin directory as the stub of a plugin loaded on first
# use (transports/common/plugin_stub.c): its entry's provides list (ABI
# 1.6) says what the plugin provides and names NAME.so in the
# implementation directory, target NAME-impl, which the host does not
# scan and opens when one of those is first needed
# (host/core/plugin_impl.c). The calling directory holds plugin_info.h,
# the id, name, version, description and what is provided, which both
# halves show.
# SOURCES: the stub's own code, when plugin_info.h asks for it (a server
# source's stub_has_servers, a feature's stub_capabilities, and the
# stub_reads they need, plugin_stub.h).
# The stub carries its note (common/plugin_note.h), written by NAME-note,
# a program of the same sources: the host reads it instead of opening the
# stub.
function(mcphost_add_plugin_stub name)
  cmake_parse_arguments(P "" "" "LIBS" ${ARGN})
  set(stub_dir ${PROJECT_SOURCE_DIR}/transports/common)
  # The stub's note (common/plugin_note.h), from its own entry: a program
  # of the stub's sources writes it, and the stub carries it, so the host
  # knows the plugin without opening the stub.
  # A build for another machine cannot run the program: its stubs have
  # no note and are opened as any plugin.
  set(note_c "")
  if(NOT CMAKE_CROSSCOMPILING OR CMAKE_CROSSCOMPILING_EMULATOR)
    set(note_c ${CMAKE_CURRENT_BINARY_DIR}/${name}-note.c)
    add_executable(${name}-note ${stub_dir}/plugin_note_gen.c
      ${stub_dir}/plugin_stub.c ${P_UNPARSED_ARGUMENTS})
    target_include_directories(${name}-note PRIVATE
                               ${CMAKE_CURRENT_SOURCE_DIR} ${stub_dir})
    target_compile_definitions(${name}-note PRIVATE
                               LAZY_IMPL_FILE="${name}.so")
    target_link_libraries(${name}-note PRIVATE mcphost_plugin_note
                          mcphost_sdk ${P_LIBS})
    add_custom_command(OUTPUT ${note_c}
      COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} ${name}-note ${note_c}
      DEPENDS ${name}-note
      COMMENT "Writing the note of the ${name} stub" VERBATIM)
  endif()
  mcphost_add_plugin(${name} ${stub_dir}/plugin_stub.c ${note_c}
    ${P_UNPARSED_ARGUMENTS} LIBS ${P_LIBS})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                             ${stub_dir})
  target_compile_definitions(${name} PRIVATE LAZY_IMPL_FILE="${name}.so")
  # Built with it, so that a build of the plugin is never without it.
  add_dependencies(${name} ${name}-impl)
endfunction()

# mcphost_add_lazy_transport(NAME SOURCES... [LIBS libs...])
#
# A transport plugin whose libraries are loaded only when a transport of
# its types is created: SOURCES and LIBS build the implementation (target
# NAME-impl, in the implementation directory), and NAME.so is its stub
# (mcphost_add_plugin_stub), whose plugin_info.h declares the types.
function(mcphost_add_lazy_transport name)
  cmake_parse_arguments(P "" "" "LIBS" ${ARGN})
  mcphost_add_plugin(${name}-impl ${P_UNPARSED_ARGUMENTS}
    LIBS ${P_LIBS}
    OUTPUT_DIR "${MCPHOST_IMPL_BUILD_DIR}"
    INSTALL_DIR "${MCPHOST_IMPL_SUBDIR}")
  set_target_properties(${name}-impl PROPERTIES OUTPUT_NAME ${name})
  mcphost_add_plugin_stub(${name})
endfunction()
