"""`from aria_kit import …` for every name the README lists, and the optional Qdrant backend imported lazily."""

import subprocess
import sys

import aria_kit


def test_every_exported_name_imports_from_the_package():
    for name in aria_kit.__all__:
        assert getattr(aria_kit, name) is not None, name


def test_qdrant_memory_imports_from_the_package():
    from aria_kit import QdrantMemory
    from aria_kit.qdrant_memory import QdrantMemory as direct

    assert QdrantMemory is direct


def test_without_qdrant_edge_the_error_says_how_to_install_it_and_the_rest_still_works():
    # A process in which qdrant_edge cannot be imported (None in sys.modules blocks the import).
    code = ("import sys; sys.modules['qdrant_edge'] = None\n"
            "import aria_kit\n"
            "from aria_kit import HybridMemory, make_agent\n"
            "try:\n"
            "    from aria_kit import QdrantMemory\n"
            "except ImportError as exc:\n"
            "    print('ImportError:', exc)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "ImportError:" in result.stdout and "pip install 'aria_kit[qdrant]'" in result.stdout


def test_without_qdrant_client_memory_stays_embedded_and_a_server_url_says_how_to_install_it():
    # Embedded mode is Qdrant Edge and needs no qdrant-client; only a server does.
    code = ("import sys; sys.modules['qdrant_client'] = None\n"
            "from aria_kit import QdrantMemory\n"
            "print(QdrantMemory().store('embedded'))\n"
            "try:\n"
            "    QdrantMemory(url='http://127.0.0.1:1')\n"
            "except ImportError as exc:\n"
            "    print('ImportError:', exc)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("mem_0001\n")
    assert "ImportError:" in result.stdout and "pip install 'aria_kit[qdrant]'" in result.stdout
