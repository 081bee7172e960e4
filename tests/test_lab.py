"""`make lab` as a new user meets it: the server starts (as root too), a notebook's .py opens as a
notebook with its kernel named, and jupytext is the default viewer of .py files.

Starts the very command of the Makefile on a free port with a token, asks the server's REST API
(settings, contents through jupytext's contents manager, kernelspecs) and ends the server by its
process group.
"""
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request

import pytest

from lib.companion import paths

TOKEN = "companion-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def lab():
    port = free_port()
    args = (f"LAB_ARGS=--no-browser --port={port} --ServerApp.token={TOKEN} "
            "--ServerApp.ip=127.0.0.1")
    server = subprocess.Popen(["make", "-s", "lab", args], cwd=paths.ROOT, start_new_session=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(120):
            if server.poll() is not None:
                pytest.fail(f"make lab exited {server.returncode}:\n{server.stdout.read()}")
            try:
                get(port, "/api/status")
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("make lab did not answer within 60 s")
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def test_a_py_notebook_opens_as_a_notebook_by_default(lab):
    doc = get(lab, "/lab/api/settings/@jupyterlab/docmanager-extension:plugin")
    viewers = doc["schema"]["properties"]["defaultViewers"]["default"]  # the default, overridden
    assert viewers["python"] == "Jupytext Notebook"


def test_a_notebook_names_its_kernel_and_the_kernel_exists(lab):
    nb = get(lab, "/api/contents/notebooks/gd_perceptron/01_reduction.py?type=notebook&content=1")
    name = nb["content"]["metadata"]["kernelspec"]["name"]
    assert name in get(lab, "/api/kernelspecs")["kernelspecs"]
