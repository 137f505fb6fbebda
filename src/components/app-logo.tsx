interface AppLogoProps {
  size?: number;
  /** Accessible name; omit when the logo sits next to the app title (it is then decorative). */
  label?: string;
}

/** The TAO mark: a white play symbol on the brand blue. public/logo.svg is the same drawing (favicon). */
export function AppLogo({ size = 36, label }: AppLogoProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 64 64"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      style={{ flexShrink: 0 }}
    >
      <rect width="64" height="64" rx="14" fill="var(--mantine-color-tao-7, #004fc2)" />
      <path d="M25 19.5v25a1.5 1.5 0 0 0 2.3 1.3l19.6-12.5a1.5 1.5 0 0 0 0-2.6L27.3 18.2A1.5 1.5 0 0 0 25 19.5z" fill="#fff" />
    </svg>
  );
}
