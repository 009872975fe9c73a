// BelayRender
import CFreeType
import CHarfBuzz
import CJPEG
import CDeflate
import CPNG
import CImageShim
