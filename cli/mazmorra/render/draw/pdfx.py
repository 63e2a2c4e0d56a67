"""PDF/X marks on a ReportLab canvas: the OutputIntent (the printer's ICC profile embedded), the
GTS_PDFXVersion key and Trapped in the document information. The pages themselves are made
conformant by drawing (DeviceCMYK only, every page with its TrimBox and BleedBox, fonts embedded)."""

from __future__ import annotations

import base64
import re
import uuid
import zlib
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from mazmorra.printers.cmyk import CmykOutput

# The value of GTS_PDFXVersion for each standard a profile may name (ISO 15930-4 and -7).
VERSIONS = {"PDF/X-1a:2003": "PDF/X-1:2003", "PDF/X-4": "PDF/X-4"}
CONDITIONS = {"swop-tr005-240": ("CGATS TR 005", "SWOP grade 5 coated (CGATS/SWOP TR 005-2007), 240 % total ink")}


class _Info(pdfdoc.PDFInfo):  # type: ignore[misc]  # ReportLab has no type hints
    """The document information with the PDF/X keys."""

    pdfx = ""

    def format(self, document: Any) -> bytes:
        text: bytes = super().format(document)
        extra = f"/GTS_PDFXVersion ({self.pdfx})".encode()
        return text.replace(b"<<", b"<<\n" + extra + b"\n", 1)


def mark(canvas: Canvas, standard: str, ink: CmykOutput) -> None:
    """Make the canvas's document a PDF/X file of `standard` for `ink`'s output condition."""
    doc = canvas._doc
    info = _Info()
    info.__dict__.update(doc.info.__dict__)
    info.pdfx = VERSIONS[standard]
    info.trapped = "False"
    doc.info = info
    profile = pdfdoc.PDFStream(content=ink.icc_deflated)
    profile.dictionary["N"] = 4
    profile.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
    profile.__RefOnly__ = 1
    ident, description = CONDITIONS.get(ink.name, (ink.name, ink.name))
    intent = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("OutputIntent"),
            "S": pdfdoc.PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": pdfdoc.PDFString(ident),
            "OutputCondition": pdfdoc.PDFString(description),
            "RegistryName": pdfdoc.PDFString("http://www.color.org"),
            "Info": pdfdoc.PDFString(description),
            "DestOutputProfile": doc.Reference(profile, f"OutputProfile{ink.name}"),
        }
    )
    catalog = doc.Catalog
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = pdfdoc.PDFArray([intent])
    if standard == "PDF/X-4":  # PDF 1.6 and XMP metadata saying the same as the document information
        doc._pdfVersion = max(tuple(doc._pdfVersion), (1, 6))
        xmp = pdfdoc.PDFStream(content=_xmp(info, standard).encode("utf-8"), filters=[])
        xmp.dictionary["Type"] = pdfdoc.PDFName("Metadata")
        xmp.dictionary["Subtype"] = pdfdoc.PDFName("XML")
        catalog.Metadata = xmp


def _xmp(info: Any, standard: str) -> str:
    """The XMP packet of a PDF/X-4 file: title, dates, producer and trapping as in the document
    information (a builds' fixed date: files stay byte-identical), the PDF/X version, a document id
    made from the title."""
    date = "2000-01-01T00:00:00Z"
    doc_id = uuid.uuid5(uuid.NAMESPACE_URL, f"mazmorra:{info.title}")
    esc = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{str(info.title).translate(esc)}</rdf:li></rdf:Alt></dc:title>
   <dc:format>application/pdf</dc:format>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <xmp:CreatorTool>{str(info.creator).translate(esc)}</xmp:CreatorTool>
   <pdf:Producer>{str(info.producer).translate(esc)}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>{standard}</pdfxid:GTS_PDFXVersion>
   <xmpMM:DocumentID>uuid:{doc_id}</xmpMM:DocumentID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


# The standard 14 fonts a PDF may name without embedding them (a print shop's preflight refuses them).
_STANDARD = re.compile(rb"/BaseFont\s*/(Helvetica|Times|Courier|Symbol|ZapfDingbats)[\w-]*")
_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\n?endstream", re.S)
_RGB_OP = re.compile(rb"(?:^|[\s\]])(rg|RG)(?=\s|$)")


_TRANSPARENT = re.compile(rb"/SMask\s|/(?:ca|CA)\s+(?:0?\.\d+|0)\b")


def transparent(pdf: bytes) -> bool:
    """Whether a PDF uses transparency (a soft mask, or a fill or stroke alpha below 1), which PDF/X-1a forbids."""
    return _TRANSPARENT.search(pdf) is not None


def leftovers(pdf: bytes) -> tuple[bool, list[str]]:
    """What a finished PDF must not hold for a CMYK print shop: whether any content stream sets an
    RGB colour or any image is DeviceRGB, and the fonts it names without embedding them."""
    rgb = b"/DeviceRGB" in pdf
    for m in _STREAM.finditer(pdf):
        body = m.group(1)
        if body.endswith(b"~>"):  # ASCII85 (ReportLab's default outside mazmorra's drawing)
            body = base64.a85decode(body[:-2])
        try:
            body = zlib.decompress(body)
        except zlib.error:
            pass  # an uncompressed content stream
        if body[36:40] == b"acsp":
            continue  # the embedded ICC profile, not a content stream
        if _RGB_OP.search(body):
            rgb = True
            break
    fonts = sorted({m.group(0).split(b"/")[-1].decode("latin-1") for m in _STANDARD.finditer(pdf)})
    return rgb, fonts
