"""Generates a Python client for Belay from an OpenAPI document with openapi-python-client, as
an app developer would, and passes on everything the generator printed and its exit status.

    scripts/test-python scripts/testing/generate-client.py openapi.json OUTPUT_DIRECTORY

The package is written to OUTPUT_DIRECTORY itself (no pyproject around it); import it by adding
the directory's parent to sys.path. The generator formats what it wrote with ruff, which comes
with it into the same virtual environment: that folder is put on PATH so that the formatting
runs and no warning is printed for a missing ruff.
"""

import os
import subprocess
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: generate-client.py DOCUMENT OUTPUT_DIRECTORY", file=sys.stderr)
        return 64
    document, output = sys.argv[1:3]
    tools = os.path.dirname(sys.executable)
    environment = dict(os.environ, PATH=tools + os.pathsep + os.environ.get("PATH", ""))
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", document, "--output-path", output,
         "--meta", "none"],
        env=environment, capture_output=True, text=True, check=False)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
