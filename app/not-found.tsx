import Link from "@/components/ui/link";

export default function NotFound() {
  return (
    <main className="grid min-h-[60vh] place-items-center px-4 text-center">
      <div>
        <p className="text-sm font-semibold text-indigo-600">404</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Nothing here</h1>
        <Link href="/" className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline">
          Back to the overview
        </Link>
      </div>
    </main>
  );
}
