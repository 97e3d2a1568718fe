// Lets code outside React (the HTTP client) move the app to another route. The router
// registers its navigate function at start-up; before that a full page load is used.
type Navigate = (path: string) => void;

let navigateInApp: Navigate | null = null;

export function registerAppNavigation(navigate: Navigate | null): void {
  navigateInApp = navigate;
}

export function navigateTo(path: string): void {
  if (navigateInApp) navigateInApp(path);
  else window.location.assign(path);
}
