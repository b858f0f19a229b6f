"""A ctypes binding of a few functions of libmcphost (mcphost/client.h),
Python's standard library only. The library is found through the usual
loader path (LD_LIBRARY_PATH, the system's directories): libmcphost.so.1.

    client = Client(configs=['{"mcpServers": {...}}'], strict=True)
    result = client.call("server/tool", '{"a": 1}')  # JSON text
    text, is_error = result_text(result)
    client.close()

A failure raises Error, with the status code (MCPHOST_E*), its name and
the library's message.
"""
import ctypes

API_MAJOR, API_MINOR = 1, 0
OP_CALL_TOOL = 2
STATUS_NAMES = {}

lib = ctypes.CDLL("libmcphost.so.1")


class _Error(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32),
                ("code", ctypes.c_int32),
                ("rpc_code", ctypes.c_int32),
                ("message", ctypes.c_char * 1024),
                ("server", ctypes.c_char * 256)]

    def __init__(self):
        super().__init__()
        self.struct_size = ctypes.sizeof(self)


_notify_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p,
                              ctypes.c_char_p, ctypes.c_char_p)
_request_fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p,
                               ctypes.c_char_p, ctypes.c_char_p,
                               ctypes.c_void_p)
_ask_fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


class _Options(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32),
                ("api_major", ctypes.c_uint32),
                ("api_minor", ctypes.c_uint32),
                ("loop_mode", ctypes.c_int32),
                ("plugin_dirs", ctypes.POINTER(ctypes.c_char_p)),
                ("nplugin_dirs", ctypes.c_size_t),
                ("configs", ctypes.POINTER(ctypes.c_char_p)),
                ("nconfigs", ctypes.c_size_t),
                ("strict", ctypes.c_int32),
                ("approve_project", ctypes.c_int32),
                ("connect_timeout_ms", ctypes.c_uint64),
                ("tool_timeout_ms", ctypes.c_uint64),
                ("request_timeout_ms", ctypes.c_uint64),
                ("verbosity", ctypes.c_int32),
                ("on_notify", _notify_fn),
                ("on_request", _request_fn),
                ("on_ask", _ask_fn),
                ("ud", ctypes.c_void_p)]


class _Request(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32),
                ("kind", ctypes.c_int32),
                ("server", ctypes.c_char_p),
                ("name", ctypes.c_char_p),
                ("method", ctypes.c_char_p),
                ("arguments", ctypes.c_char_p),
                ("timeout_ms", ctypes.c_uint64)]


_out_str = ctypes.POINTER(ctypes.c_void_p)
lib.mcphost_status_name.restype = ctypes.c_char_p
lib.mcphost_status_name.argtypes = [ctypes.c_int]
lib.mcphost_client_new.argtypes = [ctypes.POINTER(_Options),
                                   ctypes.POINTER(ctypes.c_void_p),
                                   ctypes.POINTER(_Error)]
lib.mcphost_client_free.argtypes = [ctypes.c_void_p]
lib.mcphost_client_free.restype = None
lib.mcphost_run.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Request),
                            _out_str, ctypes.POINTER(ctypes.c_size_t),
                            ctypes.POINTER(_Error)]
lib.mcphost_result_text.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                    _out_str,
                                    ctypes.POINTER(ctypes.c_size_t),
                                    ctypes.POINTER(ctypes.c_int),
                                    ctypes.POINTER(_Error)]
lib.mcphost_free.argtypes = [ctypes.c_void_p]
lib.mcphost_free.restype = None


class Error(Exception):
    def __init__(self, code, message):
        self.code = code
        self.name = lib.mcphost_status_name(code).decode()
        super().__init__(message)


def _taken(ptr, length):
    """The bytes of a string the library returned, which is then freed."""
    data = ctypes.string_at(ptr, length)
    lib.mcphost_free(ptr)
    return data


class Client:
    def __init__(self, configs=(), strict=False):
        opts = _Options(struct_size=ctypes.sizeof(_Options),
                        api_major=API_MAJOR, api_minor=API_MINOR)
        self._configs = (ctypes.c_char_p * max(1, len(configs)))(
            *[c.encode() for c in configs])
        opts.configs = self._configs
        opts.nconfigs = len(configs)
        opts.strict = 1 if strict else 0
        self._handle = ctypes.c_void_p()
        err = _Error()
        rc = lib.mcphost_client_new(ctypes.byref(opts),
                                    ctypes.byref(self._handle),
                                    ctypes.byref(err))
        if rc != 0:
            raise Error(rc, err.message.decode(errors="replace"))

    def call(self, ref, arguments=None):
        """Calls the tool `ref` (SERVER/TOOL) with `arguments` (JSON text);
        returns the result as JSON text (bytes, as the server sent it)."""
        rq = _Request(struct_size=ctypes.sizeof(_Request),
                      kind=OP_CALL_TOOL, name=ref.encode(),
                      arguments=arguments.encode() if arguments else None)
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        err = _Error()
        rc = lib.mcphost_run(self._handle, ctypes.byref(rq),
                             ctypes.byref(out), ctypes.byref(length),
                             ctypes.byref(err))
        if rc != 0:
            raise Error(rc, err.message.decode(errors="replace"))
        return _taken(out, length.value)

    def close(self):
        if self._handle:
            lib.mcphost_client_free(self._handle)
            self._handle = None


def result_text(result):
    """The text of a result (bytes of JSON), as `mcphost call` prints it:
    (text as bytes, is_error)."""
    buf = ctypes.create_string_buffer(result, len(result))
    out = ctypes.c_void_p()
    length = ctypes.c_size_t()
    is_error = ctypes.c_int()
    err = _Error()
    rc = lib.mcphost_result_text(buf, len(result), ctypes.byref(out),
                                 ctypes.byref(length), ctypes.byref(is_error),
                                 ctypes.byref(err))
    if rc != 0:
        raise Error(rc, err.message.decode(errors="replace"))
    return _taken(out, length.value), bool(is_error.value)
