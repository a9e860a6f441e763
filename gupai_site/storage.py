"""Static files in production: WhiteNoise's compressed, hashed files once ``collectstatic`` has
run, and the plain files (served by WhiteNoise from the apps' and the project's static folders)
when it has not, instead of a 500 on every page.

``CompressedManifestStaticFilesStorage`` answers a name missing from ``staticfiles.json`` with
a ``ValueError``, so a site started without ``collectstatic`` (a forgotten build step, a
developer trying production settings) failed on every page that links a stylesheet, the admin's
login included. ``StaticFilesStorage`` below is the same storage (``collectstatic`` writes the
compressed, hashed files and the manifest as before) except that without a manifest it names
each file as it is: settings then let WhiteNoise serve from the finders
(``WHITENOISE_USE_FINDERS``), and ``gupai_site.checks`` warns "run collectstatic".
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

MANIFEST_NAME = "staticfiles.json"


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    manifest_name = MANIFEST_NAME

    def read_manifest(self):
        content = super().read_manifest()
        self.manifest_found = content is not None
        return content

    def stored_name(self, name):
        if not getattr(self, "manifest_found", True):
            return name
        return super().stored_name(name)
