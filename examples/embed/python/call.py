#!/usr/bin/env python3
"""call.py CONFIG SERVER/TOOL [JSON]: examples/embed/call.c in Python,
through the ctypes binding beside it (mcphost.py). Output and exit
status as `mcphost call`'s."""
import sys

import mcphost

EXIT = {0: 0, -1: 2, -3: 4, -4: 5, -5: 6, -6: 7, -7: 8, -8: 130}


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: call.py CONFIG SERVER/TOOL [JSON]\n")
        return 2
    try:
        client = mcphost.Client(configs=[argv[1]], strict=True)
        try:
            result = client.call(argv[2], argv[3] if len(argv) == 4 else None)
        finally:
            client.close()
        text, is_error = mcphost.result_text(result)
    except mcphost.Error as e:
        sys.stderr.write("call.py: %s\n" % e)
        return EXIT.get(e.code, 3)
    sys.stdout.buffer.write(text)
    if is_error:
        sys.stderr.write('call.py: tool "%s" reported an error\n' % argv[2])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
