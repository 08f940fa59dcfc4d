// TagTree - a PDF's structure tree as PDFBox reads it, for tests/tagged.py.
//
//   javac -cp pdfbox2.jar:... TagTree.java
//   java -cp .:pdfbox2.jar:... TagTree FILE.pdf...
//
// For each file, prints "### FILE", then one line per structure element, indented two spaces a level: its
// type as role-mapped to a standard one, then, indented one level deeper,
// the text of each marked-content sequence it holds, quoted (the glyphs'
// Unicode as PDFBox's PDFMarkedContentExtractor finds them on the page).
// The same shape as poppler's `pdfinfo -struct-text`, so the two can be
// compared.
import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDMarkedContentReference;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureElement;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureTreeRoot;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDMarkedContent;
import org.apache.pdfbox.text.PDFMarkedContentExtractor;
import org.apache.pdfbox.text.TextPosition;

public class TagTree {
    // Text of each (page, MCID).
    private final Map<PDPage, Map<Integer, String>> text = new HashMap<>();
    private final StringBuilder out = new StringBuilder();

    private void collect(Map<Integer, String> m, List<PDMarkedContent> mcs) {
        for (PDMarkedContent mc : mcs) {
            StringBuilder b = new StringBuilder();
            for (Object o : mc.getContents()) {
                if (o instanceof TextPosition)
                    b.append(((TextPosition) o).getUnicode());
                else if (o instanceof PDMarkedContent)
                    collect(m, List.of((PDMarkedContent) o));
            }
            if (mc.getMCID() >= 0)
                m.merge(mc.getMCID(), b.toString(), String::concat);
        }
    }

    private String mcText(PDPage page, int mcid) throws Exception {
        if (page == null)
            return "";
        Map<Integer, String> m = text.get(page);
        if (m == null) {
            PDFMarkedContentExtractor ex = new PDFMarkedContentExtractor();
            ex.processPage(page);
            m = new HashMap<>();
            collect(m, ex.getMarkedContents());
            text.put(page, m);
        }
        return m.getOrDefault(mcid, "");
    }

    private void walk(PDStructureElement e, int depth, PDPage page) throws Exception {
        if (e.getPage() != null)
            page = e.getPage();
        out.append("  ".repeat(depth)).append(e.getStandardStructureType()).append('\n');
        for (Object k : e.getKids()) {
            if (k instanceof PDStructureElement)
                walk((PDStructureElement) k, depth + 1, page);
            else if (k instanceof Integer)
                out.append("  ".repeat(depth + 1)).append('"')
                   .append(mcText(page, (Integer) k)).append("\"\n");
            else if (k instanceof PDMarkedContentReference) {
                PDMarkedContentReference r = (PDMarkedContentReference) k;
                out.append("  ".repeat(depth + 1)).append('"')
                   .append(mcText(r.getPage() != null ? r.getPage() : page, r.getMCID()))
                   .append("\"\n");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        for (String path : args) {
            try (PDDocument doc = PDDocument.load(new File(path))) {
                PDStructureTreeRoot root = doc.getDocumentCatalog().getStructureTreeRoot();
                TagTree t = new TagTree();
                if (root != null)
                    for (Object k : root.getKids())
                        if (k instanceof PDStructureElement)
                            t.walk((PDStructureElement) k, 0, null);
                System.out.print("### " + path + "\n" + t.out);
            }
        }
    }
}
