// BelayHTTP
import CMicroHTTPD
import CHTTPShim
