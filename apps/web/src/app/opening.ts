/**
 * Whether the console is still opening: the document has loaded and no page has been shown yet
 * (`RootGuard` ends it when it first renders). The first page's loader may wait for its data then.
 */
let opening = true;

export const isOpening = (): boolean => opening;

export const markOpened = (): void => {
  opening = false;
};
