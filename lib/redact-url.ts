/**
 * A connection URL fit for logs and error messages: the password replaced by `***` (the user name kept, so an operator
 * can tell which account was used). A string that is not a URL is named, never echoed: it may be a secret itself.
 */
export function redactUrl(url: string, name = "URL"): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return `(unparseable ${name})`;
  }
}
