/// A sign-in refused before any proof was looked at.
public enum SignInRefusal: Error, Equatable, Sendable {
    /// This way of signing in is not set up on the server; `setting` is what the club sets to turn it on.
    case methodDisabled(method: String, setting: String)
    /// Too many sign-ins are already waiting for an identity provider (keys to fetch, a code to
    /// exchange); the caller should try again in a few seconds.
    case providersBusy
}
