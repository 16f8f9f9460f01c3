"""A deliberately tiny MemoryBackend for agent tests: substring-count ranking, no embeddings.

It exists to prove the agent only needs the interface, and to keep agent tests
independent of the retrieval code.
"""

from __future__ import annotations

from aria_kit.interfaces import Hit, MemoryBackend, MemoryRecord


class ToyMemory(MemoryBackend):
    def __init__(self) -> None:
        self.records: list[MemoryRecord] = []
        self.searches: list[str] = []

    def store(self, text, metadata=None):
        if not isinstance(text, str) or not text.strip():
            raise ValueError("text must be a non-empty string")
        record = MemoryRecord(f"mem_{len(self.records) + 1:04d}", text, dict(metadata or {}))
        self.records.append(record)
        return record.id

    def search(self, query, top_k=3):
        self.searches.append(query)
        words = set(query.lower().split())
        scored = [(sum(w in r.text.lower() for w in words), -i, r) for i, r in enumerate(self.records)]
        scored = [s for s in scored if s[0] > 0]
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return [Hit(r.id, r.text, r.metadata, float(n), 0.0, float(n)) for n, _, r in scored[:top_k]]

    def list_all(self):
        return list(self.records)

    def delete(self, memory_id):
        before = len(self.records)
        self.records = [r for r in self.records if r.id != memory_id]
        return len(self.records) < before
